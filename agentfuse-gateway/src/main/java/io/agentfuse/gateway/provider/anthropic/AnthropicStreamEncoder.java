package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.UntranslatableException;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes neutral stream events as Anthropic Messages stream events. Anthropic streams one
 * content block at a time, so this opens a text block when text arrives, a tool-use block when
 * a tool call starts, and stops the open block before the next one and before
 * {@code message_delta} (stop reason and usage) and {@code message_stop}. A tool-use block is
 * closed only when its arguments, as streamed, make a JSON object (Anthropic's {@code input} is
 * one, and a client parses it so): arguments that do not are untranslatable, and the stream ends
 * with an error instead of a tool call completed from guesses. Not thread-safe.
 */
public final class AnthropicStreamEncoder implements StreamEncoder {

    private static final int NO_TOOL = -1;

    private int openBlock = -1;
    private int openTool = NO_TOOL;
    private int nextBlock;
    /** The open tool call, with its arguments as streamed so far; {@code null} when no tool-use block is open. */
    private StringBuilder toolArguments;
    private String toolId;
    private String toolName;

    @Override
    public List<SseEvent> encode(StreamEvent event) {
        List<SseEvent> out = new ArrayList<>(3);
        if (event instanceof StreamEvent.Start start) {
            JsonObject message = new JsonObject().put("id", start.id()).put("type", "message").put("role", "assistant")
                    .put("content", new JsonArray()).put("model", start.model())
                    .put("stop_reason", null).put("stop_sequence", null)
                    .put("usage", AnthropicResponseCodec.usageJson(start.usage()));
            out.add(event("message_start", new JsonObject().put("message", message)));
        } else if (event instanceof StreamEvent.TextDelta text) {
            if (openBlock < 0 || openTool != NO_TOOL) {
                openBlock(out, new JsonObject().put("type", "text").put("text", ""), NO_TOOL);
            }
            out.add(delta(new JsonObject().put("type", "text_delta").put("text", text.text())));
        } else if (event instanceof StreamEvent.ToolCallStart call) {
            openBlock(out, new JsonObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                    .put("input", new JsonObject()), call.index());
            toolArguments = new StringBuilder();
            toolId = call.id();
            toolName = call.name();
        } else if (event instanceof StreamEvent.ToolCallDelta delta) {
            if (delta.index() != openTool) {
                throw new UntranslatableException("arguments of tool call " + delta.index()
                        + " arrived after another block began (Anthropic streams one block at a time)");
            }
            toolArguments.append(delta.arguments());
            out.add(delta(new JsonObject().put("type", "input_json_delta").put("partial_json", delta.arguments())));
        } else if (event instanceof StreamEvent.Finish finish) {
            closeBlock(out);
            out.add(event("message_delta", new JsonObject()
                    .put("delta", new JsonObject().put("stop_reason", finish.reason().anthropic())
                            .put("stop_sequence", finish.stopSequence()))
                    .put("usage", AnthropicResponseCodec.usageJson(finish.usage()))));
            out.add(event("message_stop", new JsonObject()));
        } else {
            StreamEvent.Error error = (StreamEvent.Error) event;
            out.add(AnthropicDialect.INSTANCE.errorEvent(error.type(), error.message()));
        }
        return out;
    }

    private void openBlock(List<SseEvent> out, JsonObject block, int toolIndex) {
        closeBlock(out);
        openBlock = nextBlock++;
        openTool = toolIndex;
        out.add(event("content_block_start", new JsonObject().put("index", openBlock).put("content_block", block)));
    }

    /** @throws UntranslatableException when the open block is a tool call whose arguments are not a JSON object */
    private void closeBlock(List<SseEvent> out) {
        if (toolArguments != null) {
            String arguments = toolArguments.toString();
            toolArguments = null;
            new ContentPart.ToolCall(toolId, toolName, arguments).argumentsAsObject();
        }
        if (openBlock >= 0) {
            out.add(event("content_block_stop", new JsonObject().put("index", openBlock)));
            openBlock = -1;
            openTool = NO_TOOL;
        }
    }

    private SseEvent delta(JsonObject delta) {
        return event("content_block_delta", new JsonObject().put("index", openBlock).put("delta", delta));
    }

    private static SseEvent event(String type, JsonObject data) {
        return SseEvent.named(type, new JsonObject().put("type", type).mergeIn(data).encode());
    }
}
