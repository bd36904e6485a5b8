package io.agentfuse.gateway.provider.anthropic;

import io.agentfuse.core.budget.CachedTokens;
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
 * Decodes Anthropic Messages stream events. Input tokens come from {@code message_start},
 * output tokens and the stop reason from {@code message_delta}; the {@link StreamEvent.Finish}
 * is emitted at {@code message_stop}. A thinking block shows reasoning ({@link StreamEvent.Reasoning},
 * which begins the answer; its text has no counterpart elsewhere); {@code ping} is skipped. Not
 * thread-safe; one per stream.
 */
public final class AnthropicStreamDecoder implements StreamDecoder {

    private boolean finished;
    private final Map<Integer, Integer> toolIndexByBlock = new HashMap<>();
    private FinishReason stopReason;
    private String stopSequence;
    private long inputTokens;
    private long outputTokens;
    /** Of {@link #inputTokens}, those read from or written to the cache. */
    private CachedTokens cached = CachedTokens.NONE;

    @Override
    public List<StreamEvent> decode(SseEvent event) {
        if (finished) {
            return List.of();
        }
        JsonObject data;
        try {
            data = new JsonObject(event.data());
        } catch (DecodeException | ClassCastException e) {
            return malformed("a stream event that is not a JSON object: " + AnswerShape.excerpt(event.data()));
        }
        try {
            return decodeEvent(event, data);
        } catch (ClassCastException | NullPointerException | IllegalArgumentException | MalformedAnswerException e) {
            // A value our types refuse, such as a negative token count (Usage.of).
            return malformed("a stream event of the wrong shape: " + AnswerShape.excerpt(event.data()));
        }
    }

    private List<StreamEvent> decodeEvent(SseEvent event, JsonObject data) {
        String type = data.getString("type", event.event() == null ? "" : event.event());
        return switch (type) {
            case "message_start" -> messageStart(data.getJsonObject("message", new JsonObject()));
            case "content_block_start" -> blockStart(data.getInteger("index", 0),
                    data.getJsonObject("content_block", new JsonObject()));
            case "content_block_delta" -> blockDelta(data.getInteger("index", 0), data.getJsonObject("delta", new JsonObject()));
            case "message_delta" -> messageDelta(data);
            case "message_stop" -> {
                finished = true;
                yield List.of(new StreamEvent.Finish(stopReason, stopSequence, usage()));
            }
            case "error" -> {
                JsonObject error = data.getJsonObject("error", new JsonObject());
                yield fail(error.getString("type", "api_error"), error.getString("message", "upstream stream error"));
            }
            default -> List.of();
        };
    }

    @Override
    public List<StreamEvent> end() {
        if (finished) {
            return List.of();
        }
        finished = true;
        return List.of(StreamEvent.Error.cut("the upstream stream ended before message_stop"));
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public Usage usage() {
        return Usage.of(inputTokens, outputTokens, cached);
    }

    private List<StreamEvent> messageStart(JsonObject message) {
        Usage usage = AnthropicResponseCodec.usage(message.getJsonObject("usage"));
        inputTokens = usage.inputTokens();
        outputTokens = usage.outputTokens();
        cached = usage.cached();
        return List.of(new StreamEvent.Start(message.getString("id"), message.getString("model"), usage));
    }

    private List<StreamEvent> blockStart(int blockIndex, JsonObject block) {
        switch (block.getString("type", "")) {
            case "text" -> {
                String text = block.getString("text", "");
                return text.isEmpty() ? List.of() : List.of(new StreamEvent.TextDelta(text));
            }
            case "tool_use" -> {
                int toolIndex = toolIndexByBlock.size();
                toolIndexByBlock.put(blockIndex, toolIndex);
                JsonObject input = block.getJsonObject("input", new JsonObject());
                StreamEvent start = new StreamEvent.ToolCallStart(toolIndex, block.getString("id", ""),
                        block.getString("name", ""));
                return input.isEmpty() ? List.of(start) : List.of(start, new StreamEvent.ToolCallDelta(toolIndex, input.encode()));
            }
            case "thinking", "redacted_thinking" -> {
                return StreamEvent.Reasoning.ONLY;
            }
            default -> {
                return List.of();
            }
        }
    }

    private List<StreamEvent> blockDelta(int blockIndex, JsonObject delta) {
        switch (delta.getString("type", "")) {
            case "text_delta" -> {
                String text = delta.getString("text", "");
                return text.isEmpty() ? List.of() : List.of(new StreamEvent.TextDelta(text));
            }
            case "input_json_delta" -> {
                Integer toolIndex = toolIndexByBlock.get(blockIndex);
                String json = delta.getString("partial_json", "");
                return toolIndex == null || json.isEmpty() ? List.of() : List.of(new StreamEvent.ToolCallDelta(toolIndex, json));
            }
            case "thinking_delta" -> {
                return StreamEvent.Reasoning.ONLY;
            }
            default -> {
                return List.of();
            }
        }
    }

    private List<StreamEvent> messageDelta(JsonObject data) {
        JsonObject delta = data.getJsonObject("delta", new JsonObject());
        if (delta.getString("stop_reason") != null) {
            stopReason = FinishReason.fromAnthropic(delta.getString("stop_reason"));
        }
        stopSequence = delta.getString("stop_sequence", stopSequence);
        JsonObject usage = data.getJsonObject("usage");
        if (usage != null) {
            outputTokens = AnthropicResponseCodec.count(usage, "output_tokens", outputTokens);
            if (usage.containsKey("input_tokens")) {
                // Newer API versions repeat the (final) input count here, cache tokens included; when it is
                // message_start's, message_start's split of the cache writes (cache_creation) stays.
                Usage told = AnthropicResponseCodec.usage(usage);
                if (told.inputTokens() > inputTokens) {
                    inputTokens = told.inputTokens();
                    cached = told.cached();
                }
            }
        }
        return List.of();
    }

    private List<StreamEvent> malformed(String message) {
        finished = true;
        return List.of(StreamEvent.Error.malformed("upstream sent " + message));
    }

    private List<StreamEvent> fail(String type, String message) {
        finished = true;
        return List.of(new StreamEvent.Error(type, message));
    }
}
