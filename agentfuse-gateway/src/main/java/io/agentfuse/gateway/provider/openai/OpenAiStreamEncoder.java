package io.agentfuse.gateway.provider.openai;

import io.agentfuse.gateway.dialect.StreamEncoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes neutral stream events as OpenAI {@code chat.completion.chunk} events: a first chunk
 * with the assistant role, content and tool-call deltas, a chunk with the finish reason, the
 * usage chunk (empty {@code choices}) when the caller asked for {@code include_usage}, then
 * {@code data: [DONE]}. Errors are sent as {@code data: {"error": {...}}}. Not thread-safe.
 */
public final class OpenAiStreamEncoder implements StreamEncoder {

    private final boolean includeUsage;
    private final long created;
    private String id = "";
    private String model = "";

    /**
     * @param includeUsage        whether to send the usage chunk (and {@code "usage": null} on the others)
     * @param createdEpochSeconds the {@code created} stamp of every chunk
     */
    public OpenAiStreamEncoder(boolean includeUsage, long createdEpochSeconds) {
        this.includeUsage = includeUsage;
        this.created = createdEpochSeconds;
    }

    @Override
    public List<SseEvent> encode(StreamEvent event) {
        if (event instanceof StreamEvent.Start start) {
            id = start.id();
            model = start.model();
            return List.of(chunk(new JsonObject().put("role", "assistant").put("content", ""), null));
        }
        if (event instanceof StreamEvent.TextDelta text) {
            return List.of(chunk(new JsonObject().put("content", text.text()), null));
        }
        if (event instanceof StreamEvent.ToolCallStart call) {
            return List.of(toolCall(new JsonObject().put("index", call.index()).put("id", call.id()).put("type", "function")
                    .put("function", new JsonObject().put("name", call.name()).put("arguments", ""))));
        }
        if (event instanceof StreamEvent.ToolCallDelta delta) {
            return List.of(toolCall(new JsonObject().put("index", delta.index())
                    .put("function", new JsonObject().put("arguments", delta.arguments()))));
        }
        if (event instanceof StreamEvent.Finish finish) {
            List<SseEvent> out = new ArrayList<>(3);
            out.add(chunk(new JsonObject(), finish.reason().openAi()));
            if (includeUsage) {
                out.add(SseEvent.data(base().put("choices", new JsonArray())
                        .put("usage", OpenAiResponseCodec.usageJson(finish.usage())).encode()));
            }
            out.add(SseEvent.DONE);
            return out;
        }
        StreamEvent.Error error = (StreamEvent.Error) event;
        return List.of(OpenAiDialect.INSTANCE.errorEvent(error.type(), error.message()));
    }

    private SseEvent toolCall(JsonObject call) {
        return chunk(new JsonObject().put("tool_calls", new JsonArray().add(call)), null);
    }

    private SseEvent chunk(JsonObject delta, String finishReason) {
        JsonObject chunk = base().put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                .put("delta", delta).put("logprobs", null).put("finish_reason", finishReason)));
        if (includeUsage) {
            chunk.put("usage", null);
        }
        return SseEvent.data(chunk.encode());
    }

    private JsonObject base() {
        return new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", created)
                .put("model", model);
    }
}
