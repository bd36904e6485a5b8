package io.agentfuse.gateway.provider.responses;

import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes neutral stream events as the Responses API's named SSE events, each carrying its
 * {@code type} and a {@code sequence_number} counted from 0:
 * <ul>
 *   <li>{@link StreamEvent.Start}: {@code response.created}, {@code response.in_progress};</li>
 *   <li>text: a {@code message} item opened with {@code response.output_item.added} and
 *       {@code response.content_part.added}, then {@code response.output_text.delta}s;</li>
 *   <li>a tool call: a {@code function_call} item ({@code response.output_item.added}), then
 *       {@code response.function_call_arguments.delta}s;</li>
 *   <li>an item is closed when the next one begins and at the end — {@code response.output_text.done},
 *       {@code response.content_part.done} or {@code response.function_call_arguments.done}, then
 *       {@code response.output_item.done};</li>
 *   <li>{@link StreamEvent.Finish}: {@code response.completed} (or {@code response.incomplete} when
 *       the answer was cut by length or a content filter) with the whole response and its usage;</li>
 *   <li>{@link StreamEvent.Error}: an {@code error} event ({@link #errorEvent}), followed by
 *       {@code response.failed} when the response had begun — the order OpenAI uses.</li>
 * </ul>
 * Items are numbered by {@code output_index} in the order they open; item ids are derived from
 * the response id, so the same stream always encodes the same way.
 *
 * <p>Not thread-safe: one encoder per client stream.
 *
 * <pre>{@code
 * StreamEncoder encoder = new ResponsesStreamEncoder(request.original(), clock.epochMillis() / 1000);
 * encoder.encode(new StreamEvent.TextDelta("Hello")).forEach(e -> response.write(e.toBuffer()));
 * }</pre>
 */
public final class ResponsesStreamEncoder implements StreamEncoder {

    private final JsonObject echo;
    private final ToolNamespaces namespaces;
    private final long createdAt;
    private final JsonArray output = new JsonArray();
    private long sequence;
    private boolean started;
    private String id = ResponseEnvelope.responseId(null);
    private String model = "";
    private OpenItem open;

    /**
     * @param request   the caller's Responses request, echoed in the response objects, or {@code null}
     * @param createdAt the response's {@code created_at}, epoch seconds
     */
    public ResponsesStreamEncoder(JsonObject request, long createdAt) {
        this(request, createdAt, ToolNamespaces.NONE);
    }

    /** An encoder whose calls of flattened namespace functions are named as {@code namespaces} says. */
    ResponsesStreamEncoder(JsonObject request, long createdAt, ToolNamespaces namespaces) {
        this.echo = ResponseEnvelope.echo(request);
        this.createdAt = createdAt;
        this.namespaces = namespaces;
    }

    @Override
    public List<SseEvent> encode(StreamEvent event) {
        List<SseEvent> out = new ArrayList<>(4);
        if (event instanceof StreamEvent.Start start) {
            start(out, start.id(), start.model());
        } else if (event instanceof StreamEvent.TextDelta text) {
            start(out, null, null);
            text(out, text.text());
        } else if (event instanceof StreamEvent.ToolCallStart call) {
            start(out, null, null);
            close(out);
            int index = output.size();
            open = new OpenItem(index, ResponseEnvelope.itemId("fc", id, index), call.index(), call.id(), call.name());
            out.add(itemEvent("response.output_item.added", open.item("in_progress")));
        } else if (event instanceof StreamEvent.ToolCallDelta delta) {
            if (open == null || open.toolIndex != delta.index()) {
                throw new UntranslatableException("arguments of tool call " + delta.index()
                        + " arrived after another output item began (items are streamed one at a time)");
            }
            open.text.append(delta.arguments());
            out.add(event("response.function_call_arguments.delta", open.refs().put("delta", delta.arguments())));
        } else if (event instanceof StreamEvent.Finish finish) {
            start(out, null, null);
            close(out);
            String status = ResponseEnvelope.status(finish.reason());
            JsonObject response = response(status, finish.usage())
                    .put("incomplete_details", ResponseEnvelope.incompleteDetails(finish.reason()));
            out.add(event("completed".equals(status) ? "response.completed" : "response.incomplete",
                    new JsonObject().put("response", response)));
        } else {
            StreamEvent.Error error = (StreamEvent.Error) event;
            out.add(errorEvent(error.type(), error.message(), sequence++));
            if (started) {
                JsonObject response = response("failed", null).put("error",
                        new JsonObject().put("code", error.type()).put("message", error.message()));
                out.add(event("response.failed", new JsonObject().put("response", response)));
            }
        }
        return out;
    }

    /**
     * The {@code error} event that reports a failure as event number {@code sequenceNumber} — also
     * for a same-dialect stream that was relayed as received and broke, whose next number
     * {@link ResponsesStreamDecoder#nextSequenceNumber()} knows. It carries the error twice: as
     * the documented top-level {@code code}/{@code message}, and nested in {@code error} as
     * OpenAI sends it (the nested form is what makes the OpenAI SDKs raise).
     */
    public static SseEvent errorEvent(String type, String message, long sequenceNumber) {
        JsonObject error = new JsonObject().put("type", type).put("code", type).put("message", message).put("param", null);
        JsonObject data = new JsonObject().put("type", "error").put("sequence_number", sequenceNumber)
                .put("code", type).put("message", message).put("param", null).put("error", error);
        return SseEvent.named("error", data.encode());
    }

    private void start(List<SseEvent> out, String upstreamId, String upstreamModel) {
        if (started) {
            return;
        }
        started = true;
        id = ResponseEnvelope.responseId(upstreamId);
        model = upstreamModel == null ? "" : upstreamModel;
        out.add(event("response.created", new JsonObject().put("response", response("in_progress", null))));
        out.add(event("response.in_progress", new JsonObject().put("response", response("in_progress", null))));
    }

    private void text(List<SseEvent> out, String text) {
        if (open == null || open.isToolCall()) {
            close(out);
            int index = output.size();
            open = new OpenItem(index, ResponseEnvelope.itemId("msg", id, index), -1, null, null);
            out.add(itemEvent("response.output_item.added", open.item("in_progress")));
            out.add(event("response.content_part.added", open.refs().put("content_index", 0)
                    .put("part", ResponseEnvelope.textPart(""))));
        }
        open.text.append(text);
        out.add(event("response.output_text.delta", open.refs().put("content_index", 0).put("delta", text)
                .put("logprobs", new JsonArray())));
    }

    private void close(List<SseEvent> out) {
        if (open == null) {
            return;
        }
        String text = open.text.toString();
        if (open.isToolCall()) {
            out.add(event("response.function_call_arguments.done", namespaces.writeName(open.refs(), open.name)
                    .put("arguments", text)));
        } else {
            out.add(event("response.output_text.done", open.refs().put("content_index", 0).put("text", text)
                    .put("logprobs", new JsonArray())));
            out.add(event("response.content_part.done", open.refs().put("content_index", 0)
                    .put("part", ResponseEnvelope.textPart(text))));
        }
        JsonObject done = open.item("completed");
        out.add(itemEvent("response.output_item.done", done));
        output.add(done);
        open = null;
    }

    private JsonObject response(String status, Usage usage) {
        return ResponseEnvelope.response(id, model, createdAt, status, output.copy(), usage, echo);
    }

    private SseEvent itemEvent(String type, JsonObject item) {
        return event(type, new JsonObject().put("output_index", open == null ? output.size() : open.outputIndex)
                .put("item", item));
    }

    private SseEvent event(String type, JsonObject fields) {
        JsonObject data = new JsonObject().put("type", type).put("sequence_number", sequence++).mergeIn(fields);
        return SseEvent.named(type, data.encode());
    }

    /** The output item being streamed: a message (text) or a function call (its arguments). */
    private final class OpenItem {
        final int outputIndex;
        final String itemId;
        final int toolIndex;
        final String callId;
        final String name;
        final StringBuilder text = new StringBuilder();

        OpenItem(int outputIndex, String itemId, int toolIndex, String callId, String name) {
            this.outputIndex = outputIndex;
            this.itemId = itemId;
            this.toolIndex = toolIndex;
            this.callId = callId;
            this.name = name;
        }

        boolean isToolCall() {
            return callId != null;
        }

        JsonObject refs() {
            return new JsonObject().put("item_id", itemId).put("output_index", outputIndex);
        }

        JsonObject item(String status) {
            if (isToolCall()) {
                return ResponseEnvelope.functionCallItem(itemId, status, callId, name, text.toString(), namespaces);
            }
            JsonArray content = "completed".equals(status)
                    ? new JsonArray().add(ResponseEnvelope.textPart(text.toString())) : new JsonArray();
            return ResponseEnvelope.messageItem(itemId, status, content);
        }
    }
}
