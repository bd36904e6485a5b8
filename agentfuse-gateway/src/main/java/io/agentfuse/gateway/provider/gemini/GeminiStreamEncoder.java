package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes neutral stream events as a Gemini SSE stream: one {@code GenerateContentResponse} per
 * {@code data:} event. Text goes out as it comes; a tool call is held until its arguments are complete
 * (Gemini sends a function call whole) and goes out before the next text, call or the finish; the
 * finish is a last chunk with the {@code finishReason} and the {@code usageMetadata}. An error is
 * Google's error object ({@link GeminiErrors#errorBody}).
 *
 * <p>Not thread-safe; one per stream.
 */
public final class GeminiStreamEncoder implements StreamEncoder {

    private String id = "";
    private String model = "";
    private Usage inputUsage = Usage.ZERO;
    /** The tool call held until its arguments are complete: its id and name, or {@code null}. */
    private String callId;
    private String callName;
    private final StringBuilder callArguments = new StringBuilder();

    @Override
    public List<SseEvent> encode(StreamEvent event) {
        List<SseEvent> out = new ArrayList<>(2);
        if (event instanceof StreamEvent.Start start) {
            id = start.id();
            model = start.model();
            inputUsage = start.usage();
        } else if (event instanceof StreamEvent.TextDelta text) {
            flushCall(out);
            out.add(chunk(new JsonArray().add(new JsonObject().put("text", text.text())), null, null));
        } else if (event instanceof StreamEvent.ToolCallStart call) {
            flushCall(out);
            callId = call.id();
            callName = call.name();
        } else if (event instanceof StreamEvent.ToolCallDelta delta) {
            callArguments.append(delta.arguments());
        } else if (event instanceof StreamEvent.Finish finish) {
            flushCall(out);
            Usage usage = finish.usage().inputTokens() == 0
                    ? new Usage(inputUsage.inputTokens(), finish.usage().outputTokens(), inputUsage.cached())
                    : finish.usage();
            out.add(chunk(new JsonArray().add(new JsonObject().put("text", "")),
                    GeminiResponseCodec.finishReason(finish.reason()), usage));
        } else {
            StreamEvent.Error error = (StreamEvent.Error) event;
            out.add(SseEvent.data(GeminiErrors.errorBody(error.type(), error.message()).encode()));
        }
        return out;
    }

    private void flushCall(List<SseEvent> out) {
        if (callId == null) {
            return;
        }
        ContentPart.ToolCall whole = new ContentPart.ToolCall(callId, callName, callArguments.toString());
        callId = null;
        callArguments.setLength(0);
        out.add(chunk(GeminiResponseCodec.partsOf(List.of(whole)), null, null));
    }

    private SseEvent chunk(JsonArray parts, String finishReason, Usage usage) {
        return SseEvent.data(GeminiResponseCodec.response(parts, finishReason, usage, model, id).encode());
    }
}
