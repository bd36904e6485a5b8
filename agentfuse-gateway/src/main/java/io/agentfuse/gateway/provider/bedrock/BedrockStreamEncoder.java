package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes neutral stream events as ConverseStream events, in the form {@link BedrockEventStreamReader}
 * gives them (named by their event type, the JSON payload as data): {@code messageStart}, text and
 * tool-use blocks with their start, deltas and stop, {@code messageStop} and {@code metadata}. The
 * binary framing is not its job. Not thread-safe; one per stream.
 */
public final class BedrockStreamEncoder implements StreamEncoder {

    private int openBlock = -1;
    private boolean openIsText;
    private int nextBlock;

    @Override
    public List<SseEvent> encode(StreamEvent event) {
        List<SseEvent> out = new ArrayList<>(3);
        if (event instanceof StreamEvent.Start) {
            out.add(event("messageStart", new JsonObject().put("role", "assistant")));
        } else if (event instanceof StreamEvent.TextDelta text) {
            if (openBlock < 0 || !openIsText) {
                open(out, null);
            }
            out.add(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", openBlock)
                    .put("delta", new JsonObject().put("text", text.text()))));
        } else if (event instanceof StreamEvent.ToolCallStart call) {
            open(out, new JsonObject().put("toolUseId", call.id()).put("name", call.name()));
        } else if (event instanceof StreamEvent.ToolCallDelta delta) {
            out.add(event("contentBlockDelta", new JsonObject().put("contentBlockIndex", openBlock)
                    .put("delta", new JsonObject().put("toolUse", new JsonObject().put("input", delta.arguments())))));
        } else if (event instanceof StreamEvent.Finish finish) {
            close(out);
            out.add(event("messageStop", new JsonObject().put("stopReason", BedrockResponseCodec.stopReason(finish.reason()))));
            out.add(event("metadata", new JsonObject().put("usage", BedrockResponseCodec.usageJson(finish.usage()))
                    .put("metrics", new JsonObject().put("latencyMs", 0))));
        } else {
            StreamEvent.Error error = (StreamEvent.Error) event;
            String type = error.type().endsWith("Exception") ? error.type() : "InternalServerException";
            out.add(event(Character.toLowerCase(type.charAt(0)) + type.substring(1), new JsonObject().put("message", error.message())));
        }
        return out;
    }

    private void open(List<SseEvent> out, JsonObject toolUse) {
        close(out);
        openBlock = nextBlock++;
        openIsText = toolUse == null;
        if (toolUse != null) {
            out.add(event("contentBlockStart", new JsonObject().put("contentBlockIndex", openBlock)
                    .put("start", new JsonObject().put("toolUse", toolUse))));
        }
    }

    private void close(List<SseEvent> out) {
        if (openBlock >= 0) {
            out.add(event("contentBlockStop", new JsonObject().put("contentBlockIndex", openBlock)));
            openBlock = -1;
        }
    }

    private static SseEvent event(String type, JsonObject payload) {
        return SseEvent.named(type, payload.encode());
    }
}
