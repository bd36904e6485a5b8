package io.agentfuse.gateway.provider.bedrock;

import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.FinishReason;
import io.agentfuse.gateway.dialect.MalformedAnswerException;
import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes Bedrock ConverseStream events, as {@link BedrockEventStreamReader} gives them:
 * {@code messageStart} starts, text deltas and {@code toolUse} starts and input deltas follow (tool
 * calls numbered in the order they start, whatever their block index), {@code messageStop} brings the
 * stop reason and {@code metadata} — Bedrock's last event — the usage, with which the answer is
 * finished. A stream that ends after {@code messageStop} without {@code metadata} is finished at its
 * end, without usage; one that ends before was cut. An exception frame is the provider's error, its
 * type the exception's name ({@code ThrottlingException}, {@code ModelStreamErrorException}, ...); one
 * that names none ({@link BedrockEventStreamReader#UNTYPED_EXCEPTION}) is still the provider's error,
 * read as a server error ({@code InternalServerException}), as an {@code error} frame without a code
 * is, its message saying the type was missing.
 *
 * <p>Not thread-safe; one per stream.
 */
public final class BedrockStreamDecoder implements StreamDecoder {

    /** The type of an error the stream does not name: Bedrock's exception for a failure of its own. */
    private static final String SERVER_ERROR = "InternalServerException";

    private final Map<Integer, Integer> toolIndexByBlock = new HashMap<>();
    private boolean finished;
    private FinishReason stopReason;
    private Usage usage = Usage.ZERO;

    @Override
    public List<StreamEvent> decode(SseEvent event) {
        if (finished) {
            return List.of();
        }
        String name = event.event() == null ? "" : event.event();
        JsonObject data;
        try {
            data = new JsonObject(event.data());
        } catch (DecodeException | ClassCastException e) {
            return malformed("a stream event that is not a JSON object: " + AnswerShape.excerpt(event.data()));
        }
        if (BedrockEventStreamReader.UNTYPED_EXCEPTION.equals(name)) {
            finished = true;
            return List.of(new StreamEvent.Error(SERVER_ERROR, "an exception frame without its :exception-type header: "
                    + data.getString("message", "no message")));
        }
        if (name.endsWith("Exception") || "error".equals(name)) {
            finished = true;
            String type = "error".equals(name) ? data.getString("code", SERVER_ERROR)
                    : Character.toUpperCase(name.charAt(0)) + name.substring(1);
            return List.of(new StreamEvent.Error(type, data.getString("message", "upstream stream error")));
        }
        try {
            return decodeEvent(name, data);
        } catch (ClassCastException | NullPointerException | IllegalArgumentException | MalformedAnswerException e) {
            return malformed("a stream event of the wrong shape: " + AnswerShape.excerpt(event.data()));
        }
    }

    private List<StreamEvent> decodeEvent(String name, JsonObject data) {
        switch (name) {
            case "messageStart" -> {
                return List.of(new StreamEvent.Start("", "", Usage.ZERO));
            }
            case "contentBlockStart" -> {
                JsonObject toolUse = data.getJsonObject("start", new JsonObject()).getJsonObject("toolUse");
                if (toolUse == null) {
                    return List.of();
                }
                int index = toolIndexByBlock.size();
                toolIndexByBlock.put(data.getInteger("contentBlockIndex", 0), index);
                return List.of(new StreamEvent.ToolCallStart(index, toolUse.getString("toolUseId"), toolUse.getString("name")));
            }
            case "contentBlockDelta" -> {
                JsonObject delta = data.getJsonObject("delta", new JsonObject());
                if (delta.getValue("text") instanceof String text) {
                    return text.isEmpty() ? List.of() : List.of(new StreamEvent.TextDelta(text));
                }
                if (delta.getValue("reasoningContent") instanceof JsonObject) {
                    return StreamEvent.Reasoning.ONLY; // Claude's thinking, through Converse
                }
                Integer tool = toolIndexByBlock.get(data.getInteger("contentBlockIndex", 0));
                JsonObject toolUse = delta.getJsonObject("toolUse");
                String input = toolUse == null ? "" : toolUse.getString("input", "");
                return tool == null || input.isEmpty() ? List.of() : List.of(new StreamEvent.ToolCallDelta(tool, input));
            }
            case "messageStop" -> {
                stopReason = BedrockResponseCodec.finishReason(data.getString("stopReason"));
                return List.of();
            }
            case "metadata" -> {
                usage = BedrockResponseCodec.usage(data.getJsonObject("usage"));
                finished = true;
                return List.of(new StreamEvent.Finish(stopReason, null, usage));
            }
            default -> {
                return List.of(); // contentBlockStop
            }
        }
    }

    @Override
    public List<StreamEvent> end() {
        if (finished) {
            return List.of();
        }
        finished = true;
        return stopReason != null ? List.of(new StreamEvent.Finish(stopReason, null, usage))
                : List.of(StreamEvent.Error.cut("the upstream stream ended before messageStop"));
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public Usage usage() {
        return usage;
    }

    private List<StreamEvent> malformed(String message) {
        finished = true;
        return List.of(StreamEvent.Error.malformed("upstream sent " + message));
    }
}
