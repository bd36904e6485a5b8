package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.ProbeLease;
import io.agentfuse.core.breaker.shared.SharedBreakerState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease answer that says another instance holds the lease waits for that instance's probe result;
 * a result that reached the store before the answer did (the two come on two connections) is the
 * answer at once, not after the whole wait. The wait here is an hour: an answer that is not complete
 * when the call returns is one that would have waited.
 */
class ProbeResultWaitsTest {

    private static final String BREAKER = "model:gpt-4o-mini";

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final ProbeResultWaits waits = new ProbeResultWaits(thread, Duration.ofHours(1));

    @AfterEach
    void stop() {
        waits.close();
        thread.shutdownNow();
    }

    @Test
    void aCloseThatArrivedBeforeTheAnswerIsTheAnswerAtOnce() {
        waits.changed(change(7, CircuitState.CLOSED));

        CompletableFuture<ProbeLease> answer = waits.heldElsewhere(BREAKER, 5, 30_000).toCompletableFuture();

        assertThat(answer).isCompleted();
        assertThat(answer.join().status()).isEqualTo(ProbeLease.Status.SUPERSEDED);
        assertThat(answer.join().newer()).contains(change(7, CircuitState.CLOSED));
    }

    @Test
    void aChangeTheAskerHadSeenLeavesTheAnswerWaitingForTheNextOne() {
        waits.changed(change(5, CircuitState.OPEN));
        waits.changed(change(3, CircuitState.CLOSED)); // an older one read late changes nothing

        CompletableFuture<ProbeLease> answer = waits.heldElsewhere(BREAKER, 5, 30_000).toCompletableFuture();
        assertThat(answer).isNotDone();

        waits.changed(change(6, CircuitState.CLOSED));
        assertThat(answer).isCompleted();
        assertThat(answer.join().newer()).contains(change(6, CircuitState.CLOSED));
    }

    @Test
    void anotherBreakersChangeIsNoAnswer() {
        waits.changed(new SharedBreakerState("model:other", 9, CircuitState.CLOSED, "probe succeeded", Map.of(), 0,
                "instance-b", 1_000));

        assertThat(waits.heldElsewhere(BREAKER, 5, 30_000).toCompletableFuture()).isNotDone();
    }

    private static SharedBreakerState change(long version, CircuitState state) {
        return new SharedBreakerState(BREAKER, version, state, "probe succeeded", Map.of(),
                state == CircuitState.OPEN ? 60_000 : 0, "instance-b", 1_000);
    }
}
