package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** How the upstream stream tests open a stream and read what it delivers. */
final class StreamCalls {

    /** Stream timeouts that no case meets: a case about one sets only that one short. */
    static final StreamTimeouts GENEROUS = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10));

    private StreamCalls() {
    }

    static UpstreamRequest streamRequest(ProviderEndpoint provider) {
        return UpstreamRequest.of(provider, new JsonObject().put("model", "m").put("max_tokens", 50).put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))));
    }

    /** Everything a stream delivered, and how it ended. */
    static final class Collected {
        final List<SseEvent> events = new CopyOnWriteArrayList<>();
        final Promise<Throwable> ended = Promise.promise();

        Collected(UpstreamStream stream) {
            stream.handler(events::add)
                    .endHandler(v -> ended.tryComplete(null))
                    .exceptionHandler(ended::tryComplete);
        }

        /** The failure that ended the stream, or null when it ended normally. */
        Throwable end() {
            return Await.result(ended.future());
        }
    }
}
