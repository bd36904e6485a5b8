package io.agentfuse.gateway.upstream;

import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.provider.Dialects;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class UpstreamStreamTest {

    private static final StreamTimeouts GENEROUS = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10));
    // Only the limit under test is short, so a slow first connection on a cold JVM cannot trip the other.
    private static final StreamTimeouts SHORT_FIRST_EVENT = new StreamTimeouts(Duration.ofMillis(200), Duration.ofSeconds(10));
    private static final StreamTimeouts SHORT_IDLE = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofMillis(200));

    private Vertx vertx;
    private MockProvider mock;
    private UpstreamClient client;
    private ProviderEndpoint openAi;
    private ProviderEndpoint anthropic;

    @BeforeEach
    void start() {
        vertx = GatewayVertx.create();
        mock = Await.result(MockProvider.start(vertx, 0));
        client = new UpstreamClient(vertx, UpstreamClientOptions.defaults());
        openAi = new ProviderEndpoint("openai", Dialects.OPENAI, mock.openAiBaseUrl(), "k");
        anthropic = new ProviderEndpoint("anthropic", Dialects.ANTHROPIC, mock.anthropicBaseUrl(), "k");
    }

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    private UpstreamRequest streamRequest(ProviderEndpoint provider) {
        return UpstreamRequest.of(provider, new JsonObject().put("model", "m").put("max_tokens", 50).put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))));
    }

    /** Everything a stream delivered, and how it ended. */
    private static final class Collected {
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

    @Test
    void deliversEveryEventOfAnthropicStreamThenEnds() {
        mock.script(MockStep.builder().chunks("Hel", "lo").build());

        UpstreamStream stream = Await.result(client.stream(streamRequest(anthropic), GENEROUS));
        Collected collected = new Collected(stream);

        assertThat(collected.end()).isNull();
        assertThat(stream.status()).isEqualTo(200);
        assertThat(collected.events).extracting(SseEvent::event).startsWith("message_start").endsWith("message_stop");
    }

    @Test
    void deliversOpenAiStreamEndingWithDone() {
        mock.script(MockStep.builder().chunks("a", "b", "c").chunkDelayMs(20).build());

        Collected collected = new Collected(Await.result(client.stream(streamRequest(openAi), GENEROUS)));

        assertThat(collected.end()).isNull();
        assertThat(collected.events.get(collected.events.size() - 1)).isEqualTo(SseEvent.DONE);
        assertThat(mock.requests().get(0).header("accept")).contains("text/event-stream");
    }

    @Test
    void failsWithRetryAfterWhenProviderRefusesBeforeStreaming() {
        mock.script(MockStep.builder().status(429).retryAfter("3").build());

        Throwable failure = Await.failure(client.stream(streamRequest(anthropic), GENEROUS));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.status()).isEqualTo(429);
            assertThat(e.retryAfter()).contains("3");
            assertThat(e.body()).hasValueSatisfying(body -> assertThat(body).contains("rate_limit_error"));
        });
    }

    @Test
    void failsWithFirstEventTimeoutWhenHeadersAreLate() {
        mock.script(MockStep.builder().delayMs(2000).build());

        Throwable failure = Await.failure(client.stream(streamRequest(openAi), SHORT_FIRST_EVENT));

        assertThat(failure).isInstanceOf(CallTimeoutException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void failsWithFirstEventTimeoutWhenFirstTokenIsLate() {
        mock.script(MockStep.builder().firstChunkDelayMs(2000).build());

        Throwable failure = Await.failure(client.stream(streamRequest(anthropic), SHORT_FIRST_EVENT));

        assertThat(failure).isInstanceOf(CallTimeoutException.class);
    }

    @Test
    void endsWithIdleTimeoutWhenProviderFallsSilentMidStream() {
        mock.script(MockStep.builder().chunks("a", "b").chunkDelayMs(2000).build());

        Collected collected = new Collected(Await.result(client.stream(streamRequest(openAi), SHORT_IDLE)));

        assertThat(collected.end()).isInstanceOf(CallTimeoutException.class);
        assertThat(collected.events).isNotEmpty();
    }

    @Test
    void aStreamLongerThanTheIdleLimitRunsOnWhileItsEventsComeInTime() {
        // Twelve gaps of 100 ms: the stream outlasts its 500 ms idle limit twice, so the idle timer
        // fires while events still come and must move on to the last event's deadline.
        mock.script(MockStep.builder().chunks("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l")
                .chunkDelayMs(100).build());
        StreamTimeouts idle500 = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofMillis(500));

        Collected collected = new Collected(Await.result(client.stream(streamRequest(openAi), idle500)));

        assertThat(collected.end()).isNull();
        assertThat(collected.events).last().matches(SseEvent::isDone, "is [DONE]");
    }

    @Test
    void closesUpstreamConnectionAfterIdleTimeout() {
        mock.script(MockStep.builder().chunks("a", "b").chunkDelayMs(2000).build());

        new Collected(Await.result(client.stream(streamRequest(openAi), SHORT_IDLE))).end();

        Eventually.holds(vertx, () -> mock.requests().get(0).clientDisconnected());
    }

    @Test
    void endsWithConnectionErrorWhenProviderDropsMidStream() {
        mock.script(MockStep.builder().chunks("a", "b", "c").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        Collected collected = new Collected(Await.result(client.stream(streamRequest(anthropic), GENEROUS)));

        Throwable failure = collected.end();
        assertThat(failure).isInstanceOf(UpstreamConnectionException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void failsAsConnectionErrorWhenProviderDropsBeforeFirstEvent() {
        mock.script(MockStep.builder().drop(MockStep.Drop.MID_STREAM).dropAfterChunks(0).build());

        Throwable failure = Await.failure(client.stream(streamRequest(anthropic), GENEROUS));

        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void cancelClosesTheUpstreamConnection() {
        mock.script(MockStep.builder().chunks("a", "b", "c", "d").chunkDelayMs(300).build());
        UpstreamStream stream = Await.result(client.stream(streamRequest(openAi), GENEROUS));
        Collected collected = new Collected(stream);

        stream.cancel();

        Eventually.holds(vertx, () -> mock.requests().get(0).clientDisconnected());
        assertThat(collected.ended.future().isComplete()).isFalse();
    }
    @Test
    void aPausedStreamDeliversNothingUntilResumedThenEverythingInOrder() {
        // Given a provider that sends its whole stream at once, and a caller that pauses at the first
        // event and resumes 50 ms later (by then the rest has been read: it waits in the stream)
        mock.script(MockStep.builder().chunks("a", "b", "c", "d").build());
        UpstreamStream stream = Await.result(client.stream(streamRequest(openAi), GENEROUS));
        List<SseEvent> events = new CopyOnWriteArrayList<>();
        Promise<Integer> deliveredWhilePaused = Promise.promise();
        Promise<Throwable> ended = Promise.promise();
        stream.handler(event -> {
            events.add(event);
            if (events.size() == 1) {
                stream.pause();
                vertx.setTimer(50, id -> {
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
            mock.script(MockStep.builder().chunks("a", "b").build(), MockStep.builder().build());

            assertThat(new Collected(Await.result(onOneLoop.stream(streamRequest(openAi), GENEROUS))).end()).isNull();
            UpstreamResponse next = Await.result(onOneLoop.send(UpstreamRequest.of(openAi, new JsonObject().put("model", "m")
                    .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")))),
                    Duration.ofSeconds(10)));

            assertThat(next.status()).isEqualTo(200);
            assertThat(mock.connectionsAccepted()).isEqualTo(1);
        } finally {
            Await.result(oneLoop.close());
        }
    }

    @Test
    void aCallerThatPausesForGoodIsReportedStalledAndGetsNothingMore() {
        // (Whether the provider's end was read before the pause or not: both must end in the stall.)
        // Given a provider that sends its whole stream at once, and a caller that pauses at the first event for good
        mock.script(MockStep.builder().chunks("a", "b", "c").build());
        UpstreamClient impatient = new UpstreamClient(vertx, UpstreamClientOptions.defaults()
                .withLimits(32L << 20, 8 << 20, Duration.ofMillis(200)));
        UpstreamStream stream = Await.result(impatient.stream(streamRequest(openAi), GENEROUS));
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

    @Test
    void aStreamCutByItsTakerWhileTakingItIsTheTakersToAccountFor() throws Exception {
        mock.script(MockStep.builder().chunks("a", "b").firstChunkDelayMs(50).chunkDelayMs(10_000).build());
        AtomicInteger cutOffs = new AtomicInteger();

        CompletableFuture<UpstreamStream> answer = client.streamCancellable(streamRequest(openAi), GENEROUS,
                StreamOpening.EVERY_EVENT, cutOffs::incrementAndGet);
        // As the gateway's relay does when its first events fail: cut while the stream is being handed over.
        answer.thenAccept(UpstreamStream::cancel).get(10, TimeUnit.SECONDS);
        Eventually.holds(vertx, () -> mock.requests().get(0).clientDisconnected());

        assertThat(cutOffs).hasValue(0);
    }

    @Test
    void aStreamItsTakerRefusesIsCancelledAsACallCutOff() throws Exception {
        mock.script(MockStep.builder().chunks("a", "b").firstChunkDelayMs(50).chunkDelayMs(10_000).build());
        AtomicInteger cutOffs = new AtomicInteger();

        CompletableFuture<UpstreamStream> answer = client.streamCancellable(streamRequest(openAi), GENEROUS,
                StreamOpening.EVERY_EVENT, cutOffs::incrementAndGet);
        // Offered on the call's context to a taker that no longer wants it (as a caller who gave up would be).
        answer.thenAccept(stream -> stream.handTo(refused -> false)).get(10, TimeUnit.SECONDS);
        Eventually.holds(vertx, () -> mock.requests().get(0).clientDisconnected());

        assertThat(cutOffs).hasValue(1);
    }

    @Test
    void aStreamCancelledBeforeItsAnswerBeganIsACallCutOff() {
        mock.script(MockStep.builder().chunks("a").firstChunkDelayMs(10_000).build());
        AtomicInteger cutOffs = new AtomicInteger();

        CompletableFuture<UpstreamStream> answer = client.streamCancellable(streamRequest(openAi), GENEROUS,
                StreamOpening.EVERY_EVENT, cutOffs::incrementAndGet);
        Eventually.holds(vertx, () -> mock.requests().size() == 1);
        answer.cancel(true);

        Eventually.holds(vertx, () -> cutOffs.get() == 1);
        Eventually.holds(vertx, () -> mock.requests().get(0).clientDisconnected());
        assertThat(cutOffs).hasValue(1);
    }
}
