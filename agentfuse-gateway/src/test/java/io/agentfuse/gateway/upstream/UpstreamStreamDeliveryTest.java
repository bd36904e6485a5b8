package io.agentfuse.gateway.upstream;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.upstream.StreamCalls.Collected;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.agentfuse.gateway.upstream.StreamCalls.GENEROUS;
import static io.agentfuse.gateway.upstream.StreamCalls.streamRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider's stream read through the {@link UpstreamClient}: every event delivered in order to its
 * end, held back while the caller pauses (and reported stalled when it pauses for good), and the
 * connection of a stream read to its end kept for the next call.
 */
class UpstreamStreamDeliveryTest {

    @RegisterExtension
    final UpstreamHarness upstream = new UpstreamHarness();

    @Test
    void deliversEveryEventOfAnthropicStreamThenEnds() {
        upstream.mock.script(MockStep.builder().chunks("Hel", "lo").build());

        UpstreamStream stream = Await.result(upstream.client.stream(streamRequest(upstream.anthropic), GENEROUS));
        Collected collected = new Collected(stream);

        assertThat(collected.end()).isNull();
        assertThat(stream.status()).isEqualTo(200);
        assertThat(collected.events).extracting(SseEvent::event).startsWith("message_start").endsWith("message_stop");
    }

    @Test
    void deliversOpenAiStreamEndingWithDone() {
        upstream.mock.script(MockStep.builder().chunks("a", "b", "c").chunkDelayMs(20).build());

        Collected collected = new Collected(Await.result(upstream.client.stream(streamRequest(upstream.openAi), GENEROUS)));

        assertThat(collected.end()).isNull();
        assertThat(collected.events.get(collected.events.size() - 1)).isEqualTo(SseEvent.DONE);
        assertThat(upstream.mock.requests().get(0).header("accept")).contains("text/event-stream");
    }
    @Test
    void aPausedStreamDeliversNothingUntilResumedThenEverythingInOrder() {
        // Given a provider that sends its whole stream at once, and a caller that pauses at the first
        // event and resumes 50 ms later (by then the rest has been read: it waits in the stream)
        upstream.mock.script(MockStep.builder().chunks("a", "b", "c", "d").build());
        UpstreamStream stream = Await.result(upstream.client.stream(streamRequest(upstream.openAi), GENEROUS));
        List<SseEvent> events = new CopyOnWriteArrayList<>();
        Promise<Integer> deliveredWhilePaused = Promise.promise();
        Promise<Throwable> ended = Promise.promise();
        stream.handler(event -> {
            events.add(event);
            if (events.size() == 1) {
                stream.pause();
                upstream.vertx.setTimer(50, id -> {
                    deliveredWhilePaused.complete(events.size());
                    stream.resume();
                });
            }
        }).endHandler(v -> ended.tryComplete(null)).exceptionHandler(ended::tryComplete);

        // Then nothing came while paused, and after it every event, in order, then the end
        assertThat(Await.result(ended.future())).isNull();
        assertThat(Await.result(deliveredWhilePaused.future())).isEqualTo(1);
        assertThat(events).last().matches(SseEvent::isDone, "is [DONE]");
        assertThat(events.stream().map(SseEvent::data).filter(data -> data.contains("\"content\":\""))
                .map(data -> data.replaceAll(".*\"content\":\"([^\"]*)\".*", "$1")).toList())
                .containsExactly("", "a", "b", "c", "d"); // the first, the role, has empty content
    }

    @Test
    void theConnectionOfAStreamReadToItsEndCarriesTheNextCall() {
        // One event loop: pools are per loop, and two calls from the test thread need not share one otherwise
        Vertx oneLoop = GatewayVertx.create(ServerConfig.Transport.AUTO, new VertxOptions().setEventLoopPoolSize(1));
        try {
            UpstreamClient onOneLoop = new UpstreamClient(oneLoop, UpstreamClientOptions.defaults());
            upstream.mock.script(MockStep.builder().chunks("a", "b").build(), MockStep.builder().build());

            assertThat(new Collected(Await.result(onOneLoop.stream(streamRequest(upstream.openAi), GENEROUS))).end()).isNull();
            UpstreamResponse next = Await.result(onOneLoop.send(UpstreamRequest.of(upstream.openAi, new JsonObject().put("model", "m")
                    .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")))),
                    Duration.ofSeconds(10)));

            assertThat(next.status()).isEqualTo(200);
            assertThat(upstream.mock.connectionsAccepted()).isEqualTo(1);
        } finally {
            Await.result(oneLoop.close());
        }
    }

    @Test
    void aCallerThatPausesForGoodIsReportedStalledAndGetsNothingMore() {
        // (Whether the provider's end was read before the pause or not: both must end in the stall.)
        // Given a provider that sends its whole stream at once, and a caller that pauses at the first event for good
        upstream.mock.script(MockStep.builder().chunks("a", "b", "c").build());
        UpstreamClient impatient = new UpstreamClient(upstream.vertx, UpstreamClientOptions.defaults()
                .withLimits(32L << 20, 8 << 20, Duration.ofMillis(200)));
        UpstreamStream stream = Await.result(impatient.stream(streamRequest(upstream.openAi), GENEROUS));
        List<SseEvent> events = new CopyOnWriteArrayList<>();
        Promise<Void> stalled = Promise.promise();
        Promise<Throwable> ended = Promise.promise();
        stream.stallHandler(stalled::tryComplete)
                .handler(event -> {
                    events.add(event);
                    stream.pause();
                })
                .endHandler(v -> ended.tryComplete(null))
                .exceptionHandler(ended::tryComplete);

        // Then after clientWriteTimeout the stream reports the stall, and nothing more is delivered
        Await.result(stalled.future());
        assertThat(events).hasSize(1);
        assertThat(ended.future().isComplete()).isFalse();
    }
}
