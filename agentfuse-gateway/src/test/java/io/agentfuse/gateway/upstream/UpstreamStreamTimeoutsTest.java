package io.agentfuse.gateway.upstream;

import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.upstream.StreamCalls.Collected;
import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.sse.SseEvent;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static io.agentfuse.gateway.upstream.StreamCalls.streamRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream's two time limits: its first event must come within one, and each later event within the
 * idle limit of the one before; a stream that keeps to them runs as long as it needs.
 */
class UpstreamStreamTimeoutsTest {

    // Only the limit under test is short, so a slow first connection on a cold JVM cannot trip the other.
    private static final StreamTimeouts SHORT_FIRST_EVENT = new StreamTimeouts(Duration.ofMillis(200), Duration.ofSeconds(10));
    private static final StreamTimeouts SHORT_IDLE = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofMillis(200));

    @RegisterExtension
    final UpstreamHarness upstream = new UpstreamHarness();

    @Test
    void failsWithFirstEventTimeoutWhenHeadersAreLate() {
        upstream.mock.script(MockStep.builder().delayMs(2000).build());

        Throwable failure = Await.failure(upstream.client.stream(streamRequest(upstream.openAi), SHORT_FIRST_EVENT));

        assertThat(failure).isInstanceOf(CallTimeoutException.class);
        assertThat(OutcomeClassifier.defaults().classify(failure)).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void failsWithFirstEventTimeoutWhenFirstTokenIsLate() {
        upstream.mock.script(MockStep.builder().firstChunkDelayMs(2000).build());

        Throwable failure = Await.failure(upstream.client.stream(streamRequest(upstream.anthropic), SHORT_FIRST_EVENT));

        assertThat(failure).isInstanceOf(CallTimeoutException.class);
    }

    @Test
    void endsWithIdleTimeoutWhenProviderFallsSilentMidStream() {
        upstream.mock.script(MockStep.builder().chunks("a", "b").chunkDelayMs(2000).build());

        Collected collected = new Collected(Await.result(upstream.client.stream(streamRequest(upstream.openAi), SHORT_IDLE)));

        assertThat(collected.end()).isInstanceOf(CallTimeoutException.class);
        assertThat(collected.events).isNotEmpty();
    }

    @Test
    void aStreamLongerThanTheIdleLimitRunsOnWhileItsEventsComeInTime() {
        // Twelve gaps of 100 ms: the stream outlasts its 500 ms idle limit twice, so the idle timer
        // fires while events still come and must move on to the last event's deadline.
        upstream.mock.script(MockStep.builder().chunks("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l")
                .chunkDelayMs(100).build());
        StreamTimeouts idle500 = new StreamTimeouts(Duration.ofSeconds(10), Duration.ofMillis(500));

        Collected collected = new Collected(Await.result(upstream.client.stream(streamRequest(upstream.openAi), idle500)));

        assertThat(collected.end()).isNull();
        assertThat(collected.events).last().matches(SseEvent::isDone, "is [DONE]");
    }

    @Test
    void closesUpstreamConnectionAfterIdleTimeout() {
        upstream.mock.script(MockStep.builder().chunks("a", "b").chunkDelayMs(2000).build());

        new Collected(Await.result(upstream.client.stream(streamRequest(upstream.openAi), SHORT_IDLE))).end();

        Eventually.holds(upstream.vertx, () -> upstream.mock.requests().get(0).clientDisconnected());
    }
}
