package io.agentfuse.gateway.provider.azure;

import io.agentfuse.gateway.dialect.StreamDecoder;
import io.agentfuse.gateway.dialect.StreamEvent;
import io.agentfuse.gateway.dialect.Usage;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Decodes an Azure OpenAI chat stream: OpenAI's, except that Azure begins it with a chunk of empty
 * {@code choices} (and empty {@code id} and {@code model}) that only reports the prompt filter's
 * results. That chunk is skipped, so that the answer starts with the provider's id and model, and is
 * not relayed to callers (OpenAI clients that read {@code choices[0]} of every chunk fail on it).
 *
 * <p>Not thread-safe; one per stream.
 */
final class AzureStreamDecoder implements StreamDecoder {

    private final StreamDecoder openAi;
    private boolean lastWasFilterChunk;

    AzureStreamDecoder(StreamDecoder openAi) {
        this.openAi = openAi;
    }

    @Override
    public List<StreamEvent> decode(SseEvent event) {
        lastWasFilterChunk = isFilterChunk(event);
        return lastWasFilterChunk ? List.of() : openAi.decode(event);
    }

    @Override
    public List<StreamEvent> observe(SseEvent event) {
        lastWasFilterChunk = isFilterChunk(event);
        return lastWasFilterChunk ? List.of() : openAi.observe(event);
    }

    @Override
    public Opening opening(SseEvent event) {
        return isFilterChunk(event) ? Opening.PREAMBLE : openAi.opening(event);
    }

    @Override
    public boolean relaysLastEvent(boolean clientWantsUsage) {
        return !lastWasFilterChunk && openAi.relaysLastEvent(clientWantsUsage);
    }

    @Override
    public List<StreamEvent> end() {
        return openAi.end();
    }

    @Override
    public boolean finished() {
        return openAi.finished();
    }

    @Override
    public Usage usage() {
        return openAi.usage();
    }

    /** Whether {@code event} is Azure's chunk of empty choices that carries only the prompt filter's results. */
    private static boolean isFilterChunk(SseEvent event) {
        if (event.isDone() || !event.data().contains("\"prompt_filter_results\"")) {
            return false;
        }
        try {
            JsonObject chunk = new JsonObject(event.data());
            return chunk.getValue("choices") instanceof JsonArray choices && choices.isEmpty() && chunk.getValue("usage") == null;
        } catch (DecodeException e) {
            return false;
        }
    }
}
