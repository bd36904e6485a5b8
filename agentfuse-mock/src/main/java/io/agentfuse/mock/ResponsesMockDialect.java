package io.agentfuse.mock;

import io.agentfuse.mock.MockStep.MockToolCall;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes OpenAI Responses API answers ({@code POST /v1/responses}): {@code response} objects with
 * {@code message} and {@code function_call} output items, the named-event stream
 * ({@code response.created}, {@code response.in_progress}, {@code response.output_item.added},
 * {@code response.content_part.added}, {@code response.output_text.delta},
 * {@code response.output_text.done}, {@code response.content_part.done},
 * {@code response.function_call_arguments.delta}, {@code response.function_call_arguments.done},
 * {@code response.output_item.done}, then {@code response.completed} — or
 * {@code response.incomplete} for {@code finishReason: length}), every event with its
 * {@code sequence_number}, and OpenAI's {@code {"error": {...}}} errors; an error inside a stream is
 * the {@code error} event ({@link #streamError}).
 *
 * <p>Thread-safe. The sequence numbers of a stream are counted per {@link StreamIds}, which
 * lives exactly as long as its stream; the count is dropped with it.
 */
final class ResponsesMockDialect implements MockDialect {

    private final AtomicLong ids = new AtomicLong();
    private final OpenAiMockDialect errors = new OpenAiMockDialect();
    private final Map<StreamIds, AtomicLong> sequences = Collections.synchronizedMap(new WeakHashMap<>());

    @Override
    public String nextId() {
        return "resp_mock" + ids.incrementAndGet();
    }

    @Override
    public Map<String, String> requestIdHeaders() {
        return Map.of("x-request-id", MockDialect.requestId());
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        String id = nextId();
        return response(id, model, System.currentTimeMillis() / 1000, step, output(id, step, step.text()), true);
    }

    @Override
    public JsonObject missingKey(MultiMap headers) {
        return ApiKeyCheck.openAi(headers);
    }

    @Override
    public JsonObject error(int status) {
        return errors.error(status);
    }

    /** The same 404 {@code model_not_found} as Chat Completions ({@link OpenAiModelCheck}). */
    @Override
    public JsonObject unknownModel(JsonObject body) {
        return errors.unknownModel(body);
    }

    /** The Responses API refuses a {@code max_output_tokens} above the model's output limit ({@link OutputLimitCheck}). */
    @Override
    public JsonObject refusal(JsonObject body) {
        return errors.outputLimitRefusal(body, "max_output_tokens");
    }

    /**
     * The error event the live Responses API sends inside a stream: {@code event: error} with
     * {@code {"type": "error", "sequence_number", "error": {"type", "code", "message", "param"}}} —
     * the error object nested, as the official SDKs raise it (the API reference documents the fields
     * flat on the event; the live API nests them), not the Chat Completions' data-only
     * {@code {"error": {...}}} with no event name.
     */
    @Override
    public List<MockEvent> streamError(int status, String errorType, StreamIds ids) {
        return List.of(event(ids, "error", new JsonObject().put("error", errors.error(status, errorType).getJsonObject("error"))));
    }

    @Override
    public List<MockEvent> opening(MockStep step, String model, StreamIds ids) {
        JsonObject running = response(ids.id(), ids.model(), ids.created(), step, new JsonArray(), false);
        List<MockEvent> events = new ArrayList<>();
        events.add(event(ids, "response.created", new JsonObject().put("response", running)));
        events.add(event(ids, "response.in_progress", new JsonObject().put("response", running)));
        if (hasMessage(step, streamedText(step))) {
            events.add(event(ids, "response.output_item.added", new JsonObject().put("output_index", 0)
                    .put("item", message(ids.id(), "in_progress", null))));
            events.add(event(ids, "response.content_part.added", refs(messageId(ids.id()), 0).put("content_index", 0)
                    .put("part", textPart(""))));
        }
        return events;
    }

    @Override
    public List<MockEvent> text(String piece, StreamIds ids) {
        if (piece.isEmpty()) {
            return List.of();
        }
        return List.of(event(ids, "response.output_text.delta", refs(messageId(ids.id()), 0).put("content_index", 0)
                .put("delta", piece).put("logprobs", new JsonArray())));
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        List<MockEvent> events = new ArrayList<>();
        if (step.toolCalls().isEmpty()) {
            return events;
        }
        String text = streamedText(step);
        boolean hasMessage = hasMessage(step, text);
        if (hasMessage) {
            events.addAll(closeMessage(ids, text));
        }
        for (int i = 0; i < step.toolCalls().size(); i++) {
            MockToolCall call = step.toolCalls().get(i);
            int index = i + (hasMessage ? 1 : 0);
            String itemId = "fc_" + ids.id() + "_" + index;
            String arguments = call.arguments().encode();
            events.add(event(ids, "response.output_item.added", new JsonObject().put("output_index", index)
                    .put("item", functionCall(itemId, "in_progress", call, ""))));
            // Real streams split the arguments at arbitrary places; two pieces exercise the re-assembly.
            int half = arguments.length() / 2;
            for (String part : new String[] {arguments.substring(0, half), arguments.substring(half)}) {
                events.add(event(ids, "response.function_call_arguments.delta", refs(itemId, index).put("delta", part)));
            }
            events.add(event(ids, "response.function_call_arguments.done", refs(itemId, index)
                    .put("name", call.name()).put("arguments", arguments)));
            events.add(event(ids, "response.output_item.done", new JsonObject().put("output_index", index)
                    .put("item", functionCall(itemId, "completed", call, arguments))));
        }
        return events;
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        String text = streamedText(step);
        List<MockEvent> events = new ArrayList<>();
        if (step.toolCalls().isEmpty() && hasMessage(step, text)) {
            events.addAll(closeMessage(ids, text));
        }
        JsonObject done = response(ids.id(), ids.model(), ids.created(), step, output(ids.id(), step, text), true);
        String type = "completed".equals(done.getString("status")) ? "response.completed" : "response.incomplete";
        events.add(event(ids, type, new JsonObject().put("response", done)));
        sequences.remove(ids);
        return events;
    }

    private List<MockEvent> closeMessage(StreamIds ids, String text) {
        return List.of(
                event(ids, "response.output_text.done", refs(messageId(ids.id()), 0).put("content_index", 0).put("text", text)
                        .put("logprobs", new JsonArray())),
                event(ids, "response.content_part.done", refs(messageId(ids.id()), 0).put("content_index", 0)
                        .put("part", textPart(text))),
                event(ids, "response.output_item.done", new JsonObject().put("output_index", 0)
                        .put("item", message(ids.id(), "completed", text))));
    }

    private static JsonObject response(String id, String model, long created, MockStep step, JsonArray output,
                                       boolean done) {
        boolean cut = done && "length".equals(step.effectiveFinishReason());
        int outputTokens = step.effectiveOutputTokens();
        JsonObject usage = new JsonObject().put("input_tokens", step.inputTokens())
                .put("input_tokens_details", new JsonObject().put("cached_tokens", step.cacheReadTokens()).put("cache_write_tokens", 0))
                .put("output_tokens", outputTokens)
                .put("output_tokens_details", new JsonObject().put("reasoning_tokens", 0))
                .put("total_tokens", step.inputTokens() + outputTokens);
        return new JsonObject()
                .put("id", id)
                .put("object", "response")
                .put("created_at", created)
                .put("status", !done ? "in_progress" : cut ? "incomplete" : "completed")
                .put("error", null)
                .put("incomplete_details", cut ? new JsonObject().put("reason", "max_output_tokens") : null)
                .put("instructions", null)
                .put("max_output_tokens", null)
                .put("metadata", new JsonObject())
                .put("model", model)
                .put("output", output)
                .put("parallel_tool_calls", true)
                .put("previous_response_id", null)
                .put("store", false)
                .put("temperature", 1.0)
                .put("text", new JsonObject().put("format", new JsonObject().put("type", "text")))
                .put("tool_choice", "auto")
                .put("tools", new JsonArray())
                .put("top_p", 1.0)
                .put("truncation", "disabled")
                .put("usage", done ? usage : null);
    }

    private static JsonArray output(String id, MockStep step, String text) {
        JsonArray output = new JsonArray();
        if (hasMessage(step, text)) {
            output.add(message(id, "completed", text));
        }
        for (MockToolCall call : step.toolCalls()) {
            String itemId = "fc_" + id + "_" + output.size();
            output.add(functionCall(itemId, "completed", call, call.arguments().encode()));
        }
        return output;
    }

    /** Whether the answer has a message item: always, unless it is tool calls without text. */
    private static boolean hasMessage(MockStep step, String text) {
        return step.toolCalls().isEmpty() || !text.isEmpty();
    }

    private static String streamedText(MockStep step) {
        return String.join("", step.chunks());
    }

    private static JsonObject message(String responseId, String status, String text) {
        return new JsonObject().put("id", messageId(responseId)).put("type", "message").put("status", status)
                .put("role", "assistant")
                .put("content", text == null ? new JsonArray() : new JsonArray().add(textPart(text)));
    }

    private static JsonObject functionCall(String itemId, String status, MockToolCall call, String arguments) {
        return new JsonObject().put("id", itemId).put("type", "function_call").put("status", status)
                .put("call_id", call.id()).put("name", call.name()).put("arguments", arguments);
    }

    private static JsonObject textPart(String text) {
        return new JsonObject().put("type", "output_text").put("text", text).put("annotations", new JsonArray())
                .put("logprobs", new JsonArray());
    }

    private static JsonObject refs(String itemId, int outputIndex) {
        return new JsonObject().put("item_id", itemId).put("output_index", outputIndex);
    }

    /** The id of the answer's one message item. */
    private static String messageId(String responseId) {
        return "msg_" + responseId;
    }

    private MockEvent event(StreamIds ids, String type, JsonObject fields) {
        long sequence = sequences.computeIfAbsent(ids, key -> new AtomicLong()).getAndIncrement();
        JsonObject data = new JsonObject().put("type", type).put("sequence_number", sequence).mergeIn(fields);
        return MockEvent.named(type, data.encode());
    }
}
