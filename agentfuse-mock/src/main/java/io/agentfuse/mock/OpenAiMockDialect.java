package io.agentfuse.mock;

import io.agentfuse.mock.MockStep.MockToolCall;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes OpenAI Chat Completions answers: {@code chat.completion} objects,
 * {@code chat.completion.chunk} streams ending in {@code data: [DONE]}, and
 * {@code {"error": {"message", "type", "param", "code"}}} errors. Thread-safe.
 */
final class OpenAiMockDialect implements MockDialect {

    private final AtomicLong ids = new AtomicLong();

    @Override
    public String nextId() {
        return "chatcmpl-mock" + ids.incrementAndGet();
    }

    @Override
    public Map<String, String> requestIdHeaders() {
        return Map.of("x-request-id", MockDialect.requestId());
    }

    @Override
    public JsonObject success(MockStep step, String model) {
        JsonObject message = new JsonObject().put("role", "assistant").put("refusal", null);
        message.put("content", step.toolCalls().isEmpty() || !step.text().isEmpty() ? step.text() : null);
        if (!step.toolCalls().isEmpty()) {
            JsonArray calls = new JsonArray();
            step.toolCalls().forEach(call -> calls.add(new JsonObject().put("id", call.id()).put("type", "function")
                    .put("function", new JsonObject().put("name", call.name()).put("arguments", call.arguments().encode()))));
            message.put("tool_calls", calls);
        }
        return new JsonObject()
                .put("id", nextId())
                .put("object", "chat.completion")
                .put("created", System.currentTimeMillis() / 1000)
                .put("model", model)
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
                        .put("logprobs", null).put("finish_reason", finishReason(step))))
                .put("usage", usage(step))
                .put("system_fingerprint", "fp_mock");
    }

    @Override
    public JsonObject missingKey(MultiMap headers) {
        return ApiKeyCheck.openAi(headers);
    }

    @Override
    public JsonObject error(int status) {
        String type;
        String code = null;
        String message;
        switch (status) {
            case 401 -> { type = "invalid_request_error"; code = "invalid_api_key"; message = "Incorrect API key provided."; }
            case 404 -> { type = "invalid_request_error"; code = "model_not_found"; message = "The model does not exist or you do not have access to it."; }
            case 429 -> { type = "requests"; code = "rate_limit_exceeded"; message = "Rate limit reached for requests. Please try again later."; }
            case 503 -> { type = "server_error"; message = "The server is overloaded or not ready yet."; }
            default -> {
                type = status >= 500 ? "server_error" : "invalid_request_error";
                message = status >= 500 ? "The server had an error while processing your request. Sorry about that!"
                        : "Invalid request (mock status " + status + ").";
            }
        }
        return new JsonObject().put("error", new JsonObject()
                .put("message", message).put("type", type).put("param", null).put("code", code));
    }

    /** OpenAI's 404 {@code model_not_found} for a model it has shut down ({@link OpenAiModelCheck}). */
    @Override
    public JsonObject unknownModel(JsonObject body) {
        return notFound(OpenAiModelCheck.problem(body.getValue("model") instanceof String model ? model : null));
    }

    /**
     * Chat Completions refuses an output limit above the model's ({@link OutputLimitCheck}) and a
     * conversation whose tool messages do not answer the calls before them.
     */
    @Override
    public JsonObject refusal(JsonObject body) {
        JsonObject tooMany = outputLimitRefusal(body, "max_completion_tokens", "max_tokens");
        if (tooMany != null) {
            return tooMany;
        }
        String problem = OpenAiRequestCheck.problem(body);
        if (problem == null) {
            return null;
        }
        JsonObject refused = error(400);
        refused.getJsonObject("error").put("message", problem).put("param", "messages");
        return refused;
    }

    /**
     * OpenAI's 400 {@code invalid_request_error}, code {@code invalid_value}, for the first of
     * {@code fields} in {@code body} that asks for more output than the model writes; {@code null} when none does.
     */
    JsonObject outputLimitRefusal(JsonObject body, String... fields) {
        OutputLimitCheck.Problem problem = OutputLimitCheck.openAi(body, fields);
        if (problem == null) {
            return null;
        }
        JsonObject refused = error(400);
        refused.getJsonObject("error").put("message", problem.message()).put("param", problem.param())
                .put("code", "invalid_value");
        return refused;
    }

    @Override
    public List<MockEvent> opening(MockStep step, String model, StreamIds ids) {
        return List.of(chunk(ids, new JsonObject().put("role", "assistant").put("content", ""), null));
    }

    @Override
    public List<MockEvent> text(String piece, StreamIds ids) {
        return List.of(chunk(ids, new JsonObject().put("content", piece), null));
    }

    @Override
    public List<MockEvent> toolCalls(MockStep step, StreamIds ids) {
        List<MockEvent> events = new ArrayList<>();
        for (int i = 0; i < step.toolCalls().size(); i++) {
            MockToolCall call = step.toolCalls().get(i);
            events.add(toolCallChunk(ids, new JsonObject().put("index", i).put("id", call.id()).put("type", "function")
                    .put("function", new JsonObject().put("name", call.name()).put("arguments", ""))));
            // Real streams split the arguments at arbitrary places; two pieces exercise the re-assembly.
            String arguments = call.arguments().encode();
            int half = arguments.length() / 2;
            for (String part : new String[] {arguments.substring(0, half), arguments.substring(half)}) {
                events.add(toolCallChunk(ids, new JsonObject().put("index", i)
                        .put("function", new JsonObject().put("arguments", part))));
            }
        }
        return events;
    }

    @Override
    public List<MockEvent> closing(MockStep step, StreamIds ids) {
        List<MockEvent> events = new ArrayList<>();
        events.add(chunk(ids, new JsonObject(), finishReason(step)));
        if (ids.includeUsage()) {
            events.add(MockEvent.data(base(ids).put("choices", new JsonArray()).put("usage", usage(step)).encode()));
        }
        events.add(MockEvent.DONE);
        return events;
    }

    private MockEvent toolCallChunk(StreamIds ids, JsonObject toolCall) {
        return chunk(ids, new JsonObject().put("tool_calls", new JsonArray().add(toolCall)), null);
    }

    private static MockEvent chunk(StreamIds ids, JsonObject delta, String finishReason) {
        JsonObject chunk = base(ids).put("choices", new JsonArray().add(new JsonObject()
                .put("index", 0).put("delta", delta).put("logprobs", null).put("finish_reason", finishReason)));
        if (ids.includeUsage()) {
            chunk.put("usage", null);
        }
        return MockEvent.data(chunk.encode());
    }

    private static JsonObject base(StreamIds ids) {
        return new JsonObject().put("id", ids.id()).put("object", "chat.completion.chunk")
                .put("created", ids.created()).put("model", ids.model()).put("system_fingerprint", "fp_mock");
    }

    private static JsonObject usage(MockStep step) {
        int output = step.effectiveOutputTokens();
        JsonObject usage = new JsonObject().put("prompt_tokens", step.inputTokens()).put("completion_tokens", output)
                .put("total_tokens", step.inputTokens() + output);
        // OpenAI counts cached tokens within prompt_tokens and tells them apart in the details; it bills no write.
        return step.cacheReadTokens() == 0 ? usage : usage.put("prompt_tokens_details",
                new JsonObject().put("cached_tokens", step.cacheReadTokens()).put("audio_tokens", 0));
    }

    private static String finishReason(MockStep step) {
        String reason = step.effectiveFinishReason();
        return "stop_sequence".equals(reason) ? "stop" : reason;
    }
}
