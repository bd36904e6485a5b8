package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.ProbeLease;
import io.agentfuse.core.breaker.shared.SharedBreakerState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease answer that says another instance holds the lease waits for that instance's probe result;
 * a result that reached the store before the answer did (the two come on two connections) is the
 * answer at once, not after the whole wait; only while a request of the breaker is on its way is a
 * change kept for it. The wait here is an hour: an answer that is not complete
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
        CompletableFuture<ProbeLease> answer = asked(() -> {
            waits.changed(change(7, CircuitState.CLOSED)); // read on the channel while the answer was on its way
            return waits.heldElsewhere(BREAKER, 5, 30_000);
        });

        assertThat(answer).isCompleted();
        assertThat(answer.join().status()).isEqualTo(ProbeLease.Status.SUPERSEDED);
        assertThat(answer.join().newer()).contains(change(7, CircuitState.CLOSED));
    }

    @Test
    void aChangeTheAskerHadSeenLeavesTheAnswerWaitingForTheNextOne() {
        CompletableFuture<ProbeLease> answer = asked(() -> {
            waits.changed(change(5, CircuitState.OPEN));
            waits.changed(change(3, CircuitState.CLOSED)); // an older one read late changes nothing
            return waits.heldElsewhere(BREAKER, 5, 30_000);
        });
        assertThat(answer).isNotDone();

        waits.changed(change(6, CircuitState.CLOSED));
        assertThat(answer).isCompleted();
        assertThat(answer.join().newer()).contains(change(6, CircuitState.CLOSED));
    }

    @Test
    void anotherBreakersChangeIsNoAnswer() {
        CompletableFuture<ProbeLease> answer = asked(() -> {
            waits.changed(new SharedBreakerState("model:other", 9, CircuitState.CLOSED, "probe succeeded", Map.of(), 0,
                    "instance-b", 1_000));
            return waits.heldElsewhere(BREAKER, 5, 30_000);
        });

        assertThat(answer).isNotDone();
    }

    /**
     * What the channel brings while no lease of the breaker is asked for is not kept: Redis ran that
     * change before any later request and answers with it itself, and a store that kept every name
     * published (a fleet's renamed models, a stranger's flood) would keep them for its life.
     */
    @Test
    void aChangeReadWhileNothingWasAskedIsNotKept() {
        waits.changed(change(7, CircuitState.CLOSED));
        asked(() -> {
            waits.changed(change(8, CircuitState.OPEN));
            return CompletableFuture.completedFuture(ProbeLease.granted(8));
        });

        assertThat(asked(() -> waits.heldElsewhere(BREAKER, 5, 30_000))).as("neither change is kept").isNotDone();
    }

    /** A lease request of the breaker, as the store sends one: {@code request} runs while it is on its way. */
    private CompletableFuture<ProbeLease> asked(Supplier<CompletionStage<ProbeLease>> request) {
        return waits.whileAsked(BREAKER, request).toCompletableFuture();
    }

    private static SharedBreakerState change(long version, CircuitState state) {
        return new SharedBreakerState(BREAKER, version, state, "probe succeeded", Map.of(),
                state == CircuitState.OPEN ? 60_000 : 0, "instance-b", 1_000);
    }
}
