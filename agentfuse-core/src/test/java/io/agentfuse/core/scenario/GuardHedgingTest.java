package io.agentfuse.core.scenario;

import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RecordingListener;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.hedge.HedgeBudget;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static io.agentfuse.core.scenario.ScriptedCalls.answers;
import static io.agentfuse.core.scenario.ScriptedCalls.fails;
import static io.agentfuse.core.scenario.ScriptedCalls.hangs;
import static io.agentfuse.core.scenario.ScriptedCalls.streams;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guard's own hedge (docs/design.md §13): a slow attempt gets the same call started beside it;
 * the first result wins and the other is cancelled, recorded as neither a success nor a failure.
 * On a {@link ManualClock}, through the asynchronous path (the synchronous one runs the same code
 * on the policy's executor: {@link SyncHedgingTest}).
 */
class GuardHedgingTest {

    private static final HedgePolicy AFTER_2S = HedgePolicy.builder().after(Duration.ofSeconds(2)).build();

    private final ManualClock clock = new ManualClock();
    private final RecordingListener recorded = new RecordingListener();
    private final HedgeEvents events = new HedgeEvents();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3)).build(), clock);
    private final Bulkhead bulkhead = Bulkhead.of("model:sonnet", 4);

    GuardHedgingTest() {
        breaker.addListener(recorded);
    }

    @Test
    void aSlowAttemptGetsAHedgeAndTheFirstAnswerWins() {
        ScriptedCalls calls = new ScriptedCalls(clock, answers("first", 10_000), answers("hedge", 1_000));

        Ended ended = run(guard(AFTER_2S, RetryPolicy.none()), calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("hedge");
        assertThat(ended.atMillis()).isEqualTo(3_000L);
        assertThat(calls.startMillis()).containsExactly(0L, 2_000L);
        assertThat(events.events()).containsExactly("started model:sonnet>model:sonnet", "won model:sonnet>model:sonnet");
    }

    @Test
    void theLoserIsNeitherASuccessNorAFailureAndGivesItsPlaceBack() {
        // Given a first attempt that would fail, late
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(503), 10_000), answers("hedge", 1_000));

        run(guard(AFTER_2S, RetryPolicy.none()), calls, Deadline.none());
        clock.advance(Duration.ofSeconds(20));

        // Then only the hedge's answer counts: the cancelled attempt is recorded neither way
        assertThat(recorded.recorded()).containsExactly(Outcome.SUCCESS);
        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(clock.pendingTasks()).as("no timer left behind").isZero();
    }

    @Test
    void aHalfOpenBreakersOnlyProbeIsNotDoubledByAHedge() {
        tripAndHalfOpen(breaker);
        ScriptedCalls calls = new ScriptedCalls(clock, answers("probe", 5_000));
        long start = calls.nowMillis();

        Ended ended = run(guard(AFTER_2S, RetryPolicy.none()), calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("probe");
        assertThat(calls.startMillis()).containsExactly(start);
        assertThat(events.events()).containsExactly("refused model:sonnet REJECTED");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aLosingProbesPermitComesBackToTheHalfOpenBreaker() {
        // Given a half-open breaker that needs two probes to succeed, and lets two through
        CircuitBreaker twoProbes = CircuitBreaker.of("model:haiku", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(3)).halfOpenRequests(2).successesToClose(2).build(), clock);
        tripAndHalfOpen(twoProbes);
        Guard guard = Guard.builder("model:haiku").circuitBreaker(twoProbes).hedge(AFTER_2S).manualClock(clock).build();

        // When the first probe is slow and its hedge (the second probe) answers first
        Ended hedged = run(guard, new ScriptedCalls(clock, hangs(), answers("hedge", 1_000)), Deadline.none());
        assertThat(hedged.value()).isEqualTo("hedge");
        assertThat(twoProbes.state()).as("one probe succeeded, the loser counted neither way").isEqualTo(CircuitState.HALF_OPEN);

        // Then the loser's permit was given back: the next call is the second probe, and closes the breaker
        Ended next = run(guard, new ScriptedCalls(clock, answers("second probe", 500)), Deadline.none());
        assertThat(next.value()).isEqualTo("second probe");
        assertThat(twoProbes.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anAttemptThatAnswersBeforeTheDelayIsNotHedged() {
        ScriptedCalls calls = new ScriptedCalls(clock, answers("first", 1_000));

        Ended ended = run(guard(AFTER_2S, RetryPolicy.none()), calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("first");
        assertThat(calls.startMillis()).containsExactly(0L);
        assertThat(events.events()).isEmpty();
        assertThat(clock.pendingTasks()).as("the hedge timer was cancelled").isZero();
    }

    @Test
    void aFailureWaitsForTheHedgeWhichThenAnswers() {
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(503), 2_500), answers("hedge", 2_000));

        Ended ended = run(guard(AFTER_2S, RetryPolicy.none()), calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("hedge");
        assertThat(ended.atMillis()).isEqualTo(4_000L);
        assertThat(recorded.recorded()).containsExactly(Outcome.SERVER_ERROR, Outcome.SUCCESS);
    }

    @Test
    void whenBothFailTheLastFailureDecidesTheRetryAndTheRetryMayBeHedgedAgain() {
        ScriptedCalls calls = new ScriptedCalls(clock, fails(HttpStatusException.builder(503).body("a").build(), 3_000),
                fails(HttpStatusException.builder(503).body("b").build(), 2_000), hangs(), answers("fourth", 500));
        RetryPolicy retry = RetryPolicy.builder().maxAttempts(2).initialDelay(Duration.ofSeconds(1)).build();

        Ended ended = run(guard(AFTER_2S, retry), calls, Deadline.none());

        // the hedge failed last, at 4 s; the retry waits 1 s; it hangs, and its own hedge answers
        assertThat(calls.startMillis()).containsExactly(0L, 2_000L, 5_000L, 7_000L);
        assertThat(ended.value()).isEqualTo("fourth");
        assertThat(ended.atMillis()).isEqualTo(7_500L);
    }

    @Test
    void aHedgeBeyondTheBudgetIsRefused() {
        HedgePolicy budgeted = HedgePolicy.builder().after(Duration.ofSeconds(2)).budget(HedgeBudget.of(0.10, clock)).build();
        ScriptedCalls calls = new ScriptedCalls(clock, answers("first", 5_000));

        Ended ended = run(guard(budgeted, RetryPolicy.none()), calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("first");
        assertThat(calls.startMillis()).as("one request holds no tenth of a hedge").containsExactly(0L);
        assertThat(events.events()).containsExactly("refused model:sonnet BUDGET");
    }

    @Test
    void anAdaptiveDelayHedgesNothingUntilTheStepHasEnoughSamplesThenHedgesAfterItsP95() {
        Guard guard = guard(HedgePolicy.builder().afterP95().build(), RetryPolicy.none());
        ScriptedCalls quick = new ScriptedCalls(clock, answers("quick", 1_000));
        for (int i = 0; i < LatencyEstimate.MIN_SAMPLES; i++) {
            assertThat(run(guard, quick, Deadline.none()).value()).isEqualTo("quick");
        }
        assertThat(events.events()).as("nothing known is slow before five answers").isEmpty();
        long start = quick.nowMillis();

        ScriptedCalls slow = new ScriptedCalls(clock, answers("slow", 10_000), answers("hedge", 1_000));
        Ended ended = run(guard, slow, Deadline.none());

        assertThat(guard.latencyEstimate()).as("made for the adaptive delay").isNotNull();
        assertThat(slow.startMillis()).containsExactly(start, start + 1_000L);
        assertThat(ended.value()).isEqualTo("hedge");
    }

    @Test
    void theFirstContentWinsTheRaceBeforeTheAnswerIsComplete() {
        ScriptedCalls calls = new ScriptedCalls(clock, streams("first", 3_000, 8_000), answers("hedge", 4_000));

        Ended ended = run(guard(AFTER_2S, RetryPolicy.none()), calls, Deadline.none());

        assertThat(ended.value()).as("the hedge would have answered at 6 s, but was cancelled at 3 s").isEqualTo("first");
        assertThat(ended.atMillis()).isEqualTo(8_000L);
        assertThat(events.events()).containsExactly("started model:sonnet>model:sonnet");
        assertThat(recorded.recorded()).containsExactly(Outcome.SUCCESS);
    }

    @Test
    void aHedgeThatCannotFitTheDeadlineIsNotStarted() {
        Guard guard = Guard.builder("model:sonnet").circuitBreaker(breaker).hedge(AFTER_2S).hedgeListener(events)
                .latencyEstimate(LatencyEstimate.of(clock)).manualClock(clock).build();
        for (int i = 0; i < LatencyEstimate.MIN_SAMPLES; i++) {
            guard.latencyEstimate().record(Duration.ofSeconds(4).toNanos());
        }
        ScriptedCalls calls = new ScriptedCalls(clock, answers("first", 4_500));

        Ended ended = run(guard, calls, Deadline.after(Duration.ofSeconds(5), clock));

        assertThat(ended.value()).isEqualTo("first");
        assertThat(events.events()).as("3 s left at 2 s, and it takes 4 s").containsExactly("refused model:sonnet NO_TIME");
    }

    @Test
    void aFullBulkheadRefusesTheHedge() {
        Bulkhead one = Bulkhead.of("model:sonnet", 1);
        Guard guard = Guard.builder("model:sonnet").circuitBreaker(breaker).bulkhead(one).hedge(AFTER_2S)
                .hedgeListener(events).manualClock(clock).build();
        ScriptedCalls calls = new ScriptedCalls(clock, answers("first", 3_000));

        Ended ended = run(guard, calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("first");
        assertThat(events.events()).containsExactly("refused model:sonnet REJECTED");
        assertThat(one.inFlight()).isZero();
    }

    @Test
    void cancellingAHedgedCallCancelsBothAttemptsUnjudged() {
        ScriptedCalls calls = new ScriptedCalls(clock, hangs(), hangs());
        CompletableFuture<String> call = guard(AFTER_2S, RetryPolicy.none())
                .executeAsync(Deadline.none(), null, calls.asyncWithContext());
        clock.advance(Duration.ofSeconds(3));

        call.cancel(true);

        assertThat(calls.startMillis()).containsExactly(0L, 2_000L);
        assertThat(recorded.recorded()).isEmpty();
        assertThat(bulkhead.inFlight()).isZero();
    }

    // ----------------------------------------------------------------

    record Ended(String value, Throwable failure, long atMillis) {
    }

    private Ended run(Guard guard, ScriptedCalls calls, Deadline deadline) {
        ScriptedCalls.Outcome<String> ended = ScriptedCalls.driveToEnd(clock,
                guard.executeAsync(deadline, null, calls.asyncWithContext()), 600_000L);
        return new Ended(ended.value(), ended.failure(), ended.atMillis());
    }

    private Guard guard(HedgePolicy hedge, RetryPolicy retry) {
        return Guard.builder("model:sonnet").retry(retry).circuitBreaker(breaker).bulkhead(bulkhead).hedge(hedge)
                .hedgeListener(events).manualClock(clock).build();
    }

    private void tripAndHalfOpen(CircuitBreaker tripped) {
        for (int i = 0; i < 3; i++) {
            tripped.onOutcome(tripped.acquire(), Outcome.SERVER_ERROR, 1_000L, -1L);
        }
        clock.advance(tripped.config().resetTimeout());
        assertThat(tripped.state()).isEqualTo(CircuitState.HALF_OPEN);
    }
}
