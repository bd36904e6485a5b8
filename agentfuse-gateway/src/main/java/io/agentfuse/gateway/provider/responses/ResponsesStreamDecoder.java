package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the Responses API's SSE events into neutral events — for translating a Responses
 * stream into another dialect, and for checking a same-dialect stream and reading its usage.
 *
 * <ul>
 *   <li>{@code response.created} is the {@link StreamEvent.Start};</li>
 *   <li>{@code response.output_text.delta} and {@code response.refusal.delta} are text;</li>
 *   <li>a {@code function_call} item ({@code response.output_item.added}) starts a tool call,
 *       numbered from 0; {@code response.function_call_arguments.delta} carries its arguments
 *       (when a provider sends only {@code .done} or the finished item, those arguments count);</li>
 *   <li>{@code response.completed} and {@code response.incomplete} are the {@link StreamEvent.Finish},
 *       with the usage of the response they carry;</li>
 *   <li>{@code response.failed} and {@code error} are a {@link StreamEvent.Error}, with the
 *       provider's error code as type ({@code server_error} when it gave none); so is an unnamed
 *       event of only {@code {"error": {...}}}, the Chat Completions shape that OpenAI-compatible
 *       servers also send in a Responses stream — read alike by {@link #decode} and {@link #observe};</li>
 *   <li>events that are not JSON, or whose fields have the wrong types, fail the stream as
 *       {@linkplain StreamEvent.Error#malformed malformed}, with a message that names the event and
 *       the field; a stream that ends before {@code response.completed} is
 *       {@linkplain StreamEvent.Error#cut cut};</li>
 *   <li>a reasoning item that begins, and a reasoning summary's or reasoning text's delta, show
 *       reasoning ({@link StreamEvent.Reasoning}); built-in tool and other events are skipped.</li>
 * </ul>
 *
 * <p>Not thread-safe: one decoder per upstream stream, fed in order.
 *
 * <pre>{@code
 * StreamDecoder decoder = new ResponsesStreamDecoder();
 * parser = new SseParser(event -> decoder.decode(event).forEach(relay::onEvent));
 * }</pre>
 */
public final class ResponsesStreamDecoder implements StreamDecoder {

    private static final String SERVER_ERROR = "server_error";

    private final Map<String, ToolCall> toolCalls = new HashMap<>();
    private boolean started;
    private boolean finished;
    private Usage usage = Usage.ZERO;
    private long nextSequenceNumber;
    /** The response of {@code response.created}, for the {@code response.failed} that closes a relayed stream cut short. */
    private JsonObject created;

    /** A tool call being streamed: its neutral index, and whether arguments have arrived. */
    private static final class ToolCall {
        final int index;
        boolean hasArguments;

        ToolCall(int index) {
            this.index = index;
        }
    }

    @Override
    public List<StreamEvent> decode(SseEvent event) {
        if (finished) {
            return List.of();
        }
        Object parsed;
        try {
            parsed = Json.decodeValue(event.data());
        } catch (DecodeException e) {
            return fail(StreamEvent.Error.malformed("upstream sent a stream event that is not JSON"));
        }
        if (!(parsed instanceof JsonObject data)) {
            return fail(StreamEvent.Error.malformed("upstream sent a stream event that is not a JSON object"));
        }
        AnswerReader reader = AnswerReader.root(data);
        if (data.getValue("sequence_number") instanceof Number number) {
            nextSequenceNumber = Math.max(nextSequenceNumber, number.longValue() + 1);
        }
        String type = data.getValue("type") instanceof String t ? t : event.event() != null ? event.event()
                // The Chat Completions shape of an in-stream error, which OpenAI-compatible servers also send here.
                : data.getValue("error") instanceof JsonObject ? "error" : "";
        if (created == null && "response.created".equals(type) && data.getValue("response") instanceof JsonObject response) {
            created = response;
        }
        try {
            return decode(type, reader);
        } catch (MalformedAnswerException e) {
            return fail(StreamEvent.Error.malformed("upstream sent a malformed " + type + " event: " + e.getMessage()));
        }
    }

    @Override
    public List<StreamEvent> end() {
        return finished ? List.of() : fail(StreamEvent.Error.cut("upstream stream ended before response.completed"));
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public Usage usage() {
        return usage;
    }

    /**
     * The sequence number that follows the highest one seen (0 before any): what an error event
     * added to a relayed stream must carry, see {@link ResponsesStreamEncoder#errorEvent}.
     */
    public long nextSequenceNumber() {
        return nextSequenceNumber;
    }

    /**
     * An {@code error} event numbered after the last relayed one and, once the response was
     * created, {@code response.failed} with that response: a Responses stream always ends with
     * {@code response.completed}, {@code response.incomplete} or {@code response.failed}.
     */
    @Override
    public List<SseEvent> failureAfterRelay(String type, String message) {
        List<SseEvent> out = new ArrayList<>(2);
        out.add(ResponsesStreamEncoder.errorEvent(type, message, nextSequenceNumber++));
        out.addAll(responseFailed(type, message));
        return out;
    }

    /**
     * After the provider's own {@code error} event, relayed, only {@code response.failed}, numbered
     * next to it (nothing after the provider's own {@code response.failed}).
     */
    @Override
    public List<SseEvent> closingAfterRelayed(String relayedEvent, String type, String message) {
        if ("response.failed".equals(relayedEvent)) {
            finished = true;
            return List.of();
        }
        return responseFailed(type, message);
    }

    /** Once the response was created, {@code response.failed} with it, numbered next; the stream is finished. */
    private List<SseEvent> responseFailed(String type, String message) {
        finished = true;
        if (created == null) {
            return List.of();
        }
        JsonObject response = created.copy().put("status", "failed")
                .put("error", new JsonObject().put("code", type).put("message", message));
        return List.of(SseEvent.named("response.failed", new JsonObject().put("type", "response.failed")
                .put("sequence_number", nextSequenceNumber++).put("response", response).encode()));
    }

    private List<StreamEvent> decode(String type, AnswerReader data) {
        List<StreamEvent> out = new ArrayList<>(2);
        switch (type) {
            case "response.created", "response.in_progress", "response.queued" -> start(out, data.object("response"));
            case "response.output_text.delta", "response.refusal.delta" -> {
                start(out, null);
                String delta = data.string("delta");
                if (!delta.isEmpty()) {
                    out.add(new StreamEvent.TextDelta(delta));
                }
            }
            case "response.output_item.added", "response.output_item.done" -> {
                start(out, null);
                AnswerReader item = data.object("item");
                if ("function_call".equals(item.string("type"))) {
                    toolItem(out, itemKey(item.optionalString("id"), data), item);
                } else if ("reasoning".equals(item.string("type")) && "response.output_item.added".equals(type)) {
                    out.add(StreamEvent.Reasoning.SHOWN); // a reasoning model begins to think; its summary, if any, follows
                }
            }
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" -> {
                start(out, null);
                out.add(StreamEvent.Reasoning.SHOWN); // a reasoning model's summary, or its text, as it thinks
            }
            case "response.function_call_arguments.delta" -> arguments(out, data, data.string("delta"), true);
            case "response.function_call_arguments.done" -> arguments(out, data, data.string("arguments"), false);
            case "response.completed", "response.incomplete" -> finish(out, data.object("response"));
            case "response.failed" -> {
                return providerError(data.object("response").optionalObject("error"), "upstream response failed");
            }
            case "error" -> {
                // OpenAI nests the error; the documented event has it at top level.
                return providerError(data.has("error") ? data.object("error") : data, "upstream stream error");
            }
            default -> {
                // content_part.*, output_text.done, reasoning items and parts, built-in tool and future events carry nothing new.
            }
        }
        return out;
    }

    private List<StreamEvent> providerError(AnswerReader error, String fallbackMessage) {
        String code = error == null ? null : error.optionalString("code");
        if (code == null && error != null && !"error".equals(error.optionalString("type"))) {
            code = error.optionalString("type");
        }
        String message = error == null ? null : error.optionalString("message");
        return fail(new StreamEvent.Error(code == null ? SERVER_ERROR : code, message == null ? fallbackMessage : message));
    }

    private void start(List<StreamEvent> out, AnswerReader response) {
        if (!started) {
            started = true;
            out.add(new StreamEvent.Start(response == null ? null : response.optionalString("id"),
                    response == null ? null : response.optionalString("model"), Usage.ZERO));
        }
    }

    /** A {@code function_call} item added or done: starts the call once, and counts arguments sent only here. */
    private void toolItem(List<StreamEvent> out, String key, AnswerReader item) {
        ToolCall call = toolCalls.get(key);
        if (call == null) {
            call = new ToolCall(toolCalls.size());
            toolCalls.put(key, call);
            out.add(new StreamEvent.ToolCallStart(call.index, item.string("call_id"), item.string("name")));
        }
        String arguments = item.optionalString("arguments");
        if (!call.hasArguments && arguments != null && !arguments.isEmpty()) {
            call.hasArguments = true;
            out.add(new StreamEvent.ToolCallDelta(call.index, arguments));
        }
    }

    private void arguments(List<StreamEvent> out, AnswerReader data, String arguments, boolean isDelta) {
        String key = itemKey(data.optionalString("item_id"), data);
        ToolCall call = toolCalls.get(key);
        if (call == null) {
            throw data.problem("item_id", "names no function_call item that was added before");
        }
        if ((isDelta || !call.hasArguments) && !arguments.isEmpty()) {
            call.hasArguments = true;
            out.add(new StreamEvent.ToolCallDelta(call.index, arguments));
        }
    }

    private void finish(List<StreamEvent> out, AnswerReader response) {
        start(out, response);
        usage = ResponsesResponseCodec.usage(response.optionalObject("usage"));
        AnswerReader incomplete = response.optionalObject("incomplete_details");
        FinishReason reason = ResponseEnvelope.finishReason(response.string("status"),
                incomplete == null ? null : incomplete.optionalString("reason"), !toolCalls.isEmpty());
        finished = true;
        out.add(new StreamEvent.Finish(reason, null, usage));
    }

    /** Items are matched by id; by output index when a provider leaves the id out. */
    private static String itemKey(String itemId, AnswerReader data) {
        return itemId != null ? itemId : "#" + data.count("output_index");
    }

    private List<StreamEvent> fail(StreamEvent.Error error) {
        finished = true;
        return List.of(error);
    }
}
