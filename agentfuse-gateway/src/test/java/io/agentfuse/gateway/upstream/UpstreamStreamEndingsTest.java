package io.agentfuse.gateway.upstream;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.upstream.StreamCalls.Collected;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.agentfuse.gateway.upstream.StreamCalls.GENEROUS;
import static io.agentfuse.gateway.upstream.StreamCalls.streamRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a stream ends other than complete: refused before it began, dropped by the provider, or
 * cancelled by its caller or its taker, and which of those count as a call cut off.
 */
class UpstreamStreamEndingsTest {

    @RegisterExtension
    final UpstreamHarness upstream = new UpstreamHarness();

    @Test
    void failsWithRetryAfterWhenProviderRefusesBeforeStreaming() {
        upstream.mock.script(MockStep.builder().status(429).retryAfter("3").build());

        Throwable failure = Await.failure(upstream.client.stream(streamRequest(upstream.anthropic), GENEROUS));

        assertThat(failure).isInstanceOfSatisfying(HttpStatusException.class, e -> {
            assertThat(e.status()).isEqualTo(429);
            assertThat(e.retryAfter()).contains("3");
            assertThat(e.body()).hasValueSatisfying(body -> assertThat(body).contains("rate_limit_error"));
        });
    }

    @Test
    void endsWithConnectionErrorWhenProviderDropsMidStream() {
        upstream.mock.script(MockStep.builder().chunks("a", "b", "c").drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());

        Collected collected = new Collected(Await.result(upstream.client.stream(streamRequest(upstream.anthropic), GENEROUS)));

        Throwable failure = collected.end();
        assertThat(failure).isInstanceOf(UpstreamConnectionException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void failsAsConnectionErrorWhenProviderDropsBeforeFirstEvent() {
        upstream.mock.script(MockStep.builder().drop(MockStep.Drop.MID_STREAM).dropAfterChunks(0).build());

        Throwable failure = Await.failure(upstream.client.stream(streamRequest(upstream.anthropic), GENEROUS));

        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void cancelClosesTheUpstreamConnection() {
        upstream.mock.script(MockStep.builder().chunks("a", "b", "c", "d").chunkDelayMs(300).build());
        UpstreamStream stream = Await.result(upstream.client.stream(streamRequest(upstream.openAi), GENEROUS));
        Collected collected = new Collected(stream);

        stream.cancel();

        Eventually.holds(upstream.vertx, () -> upstream.mock.requests().get(0).clientDisconnected());
        assertThat(collected.ended.future().isComplete()).isFalse();
    }

    @Test
    void aStreamCutByItsTakerWhileTakingItIsTheTakersToAccountFor() throws Exception {
        upstream.mock.script(MockStep.builder().chunks("a", "b").firstChunkDelayMs(50).chunkDelayMs(10_000).build());
        AtomicInteger cutOffs = new AtomicInteger();

        CompletableFuture<UpstreamStream> answer = upstream.client.streamCancellable(streamRequest(upstream.openAi), GENEROUS,
                StreamOpening.EVERY_EVENT, cutOffs::incrementAndGet);
        // As the gateway's relay does when its first events fail: cut while the stream is being handed over.
        answer.thenAccept(UpstreamStream::cancel).get(10, TimeUnit.SECONDS);
        Eventually.holds(upstream.vertx, () -> upstream.mock.requests().get(0).clientDisconnected());

        assertThat(cutOffs).hasValue(0);
    }

    @Test
    void aStreamItsTakerRefusesIsCancelledAsACallCutOff() throws Exception {
        upstream.mock.script(MockStep.builder().chunks("a", "b").firstChunkDelayMs(50).chunkDelayMs(10_000).build());
        AtomicInteger cutOffs = new AtomicInteger();

        CompletableFuture<UpstreamStream> answer = upstream.client.streamCancellable(streamRequest(upstream.openAi), GENEROUS,
                StreamOpening.EVERY_EVENT, cutOffs::incrementAndGet);
        // Offered on the call's context to a taker that no longer wants it (as a caller who gave up would be).
        answer.thenAccept(stream -> stream.handTo(refused -> false)).get(10, TimeUnit.SECONDS);
        Eventually.holds(upstream.vertx, () -> upstream.mock.requests().get(0).clientDisconnected());

        assertThat(cutOffs).hasValue(1);
    }

    @Test
    void aStreamCancelledBeforeItsAnswerBeganIsACallCutOff() {
        upstream.mock.script(MockStep.builder().chunks("a").firstChunkDelayMs(10_000).build());
        AtomicInteger cutOffs = new AtomicInteger();

        CompletableFuture<UpstreamStream> answer = upstream.client.streamCancellable(streamRequest(upstream.openAi), GENEROUS,
                StreamOpening.EVERY_EVENT, cutOffs::incrementAndGet);
        Eventually.holds(upstream.vertx, () -> upstream.mock.requests().size() == 1);
        answer.cancel(true);

        Eventually.holds(upstream.vertx, () -> cutOffs.get() == 1);
        Eventually.holds(upstream.vertx, () -> upstream.mock.requests().get(0).clientDisconnected());
        assertThat(cutOffs).hasValue(1);
    }
}
