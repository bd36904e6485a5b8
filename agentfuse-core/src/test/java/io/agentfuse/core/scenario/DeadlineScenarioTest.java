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
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.event.RetryListener;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.DeadlineExceededException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.agentfuse.core.scenario.ScriptedCalls.answers;
import static io.agentfuse.core.scenario.ScriptedCalls.fails;
import static io.agentfuse.core.scenario.ScriptedCalls.hangs;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One request, one deadline (docs/design.md §13), through {@link Guard#execute(Deadline, java.util.function.Supplier)}
 * and its asynchronous twin: every scenario runs on both paths and must end the same way at the
 * same time, on a {@link ManualClock}.
 */
class DeadlineScenarioTest {

    /** The two halves of the guard. */
    enum Path { SYNC, ASYNC }

    private static final long SECOND = 1_000_000_000L;

    private final ManualClock clock = new ManualClock();
    private final RecordingListener recorded = new RecordingListener();
    private final List<Long> refusedByDeadline = new CopyOnWriteArrayList<>();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(50)).build(), clock);
    private final LatencyEstimate latency = LatencyEstimate.of(clock);

    @AfterEach
    void leaveTheTestThreadUninterrupted() {
        Thread.interrupted();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetryWhoseWaitAndMedianCannotFitTheTimeLeftIsNotStarted(Path path) {
        // Given a step that answers in 5 s of late, and a request with 10 s
        recentAnswersTaking(5 * SECOND);
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(503), 1_000),
                fails(HttpStatusException.builder(503).body("second").build(), 1_000));

        Ended ended = run(path, guard(RetryPolicy.defaults(), null), calls, Deadline.after(Duration.ofSeconds(10), clock));

        // Then 2 s + 5 s fit the 9 s left after the first failure, 4 s + 5 s do not fit the 6 s left after the second
        assertThat(calls.startMillis()).containsExactly(0L, 3_000L);
        assertThat(ended.failure()).hasMessageContaining("second");
        assertThat(ended.atMillis()).as("ends at once with the last error").isEqualTo(4_000L);
        assertThat(refusedByDeadline).containsExactly(6 * SECOND);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void withNoRecentSamplesTheWaitAloneMustLeaveTimeForAnAttempt(Path path) {
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(500), 0));

        Ended ended = run(path, guard(RetryPolicy.defaults(), null), calls, Deadline.after(Duration.ofSeconds(5), clock));

        assertThat(calls.startMillis()).containsExactly(0L, 2_000L);
        assertThat(ended.failure()).isInstanceOf(HttpStatusException.class);
        assertThat(ended.atMillis()).isEqualTo(2_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anAttemptsTimeoutIsCutToTheTimeLeftAndNoRetryFollows(Path path) {
        recentAnswersTaking(5 * SECOND);
        ScriptedCalls calls = new ScriptedCalls(clock, hangs());

        Ended ended = run(path, guard(RetryPolicy.defaults(), Duration.ofSeconds(60)), calls,
                Deadline.after(Duration.ofSeconds(10), clock));

        assertThat(ended.failure()).isInstanceOf(DeadlineExceededException.class);
        assertThat(((DeadlineExceededException) ended.failure()).called()).isTrue();
        assertThat(ended.atMillis()).as("never later than the deadline").isEqualTo(10_000L);
        assertThat(calls.startMillis()).containsExactly(0L);
        assertThat(recorded.recorded()).as("it had twice the step's median: too slow").containsExactly(Outcome.TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anAttemptCutWithNoRecentMedianToJudgeByIsRecordedAsNeitherSuccessNorFailure(Path path) {
        // A caller's 300 ms deadline on a step nobody has called lately: the cut says nothing about the step
        ScriptedCalls calls = new ScriptedCalls(clock, hangs());

        Ended ended = run(path, guard(RetryPolicy.defaults(), Duration.ofSeconds(60)), calls,
                Deadline.after(Duration.ofMillis(300), clock));

        assertThat(ended.failure()).isInstanceOf(DeadlineExceededException.class);
        assertThat(((DeadlineExceededException) ended.failure()).called()).isTrue();
        assertThat(calls.startMillis()).containsExactly(0L);
        assertThat(recorded.recorded()).isEmpty();
        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aFirstAttemptCutSoonerThanTheStepsMedianIsRecordedAsNeitherSuccessNorFailure(Path path) {
        recentAnswersTaking(5 * SECOND);
        ScriptedCalls calls = new ScriptedCalls(clock, hangs());

        Ended ended = run(path, guard(RetryPolicy.defaults(), Duration.ofSeconds(60)), calls,
                Deadline.after(Duration.ofSeconds(3), clock));

        assertThat(ended.failure()).isInstanceOf(DeadlineExceededException.class);
        assertThat(ended.atMillis()).isEqualTo(3_000L);
        assertThat(recorded.recorded()).as("3 s of a step that takes 5 s: nothing learned").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetryCutAfterItHadTheStepsMedianIsATimeout(Path path) {
        recentAnswersTaking(5 * SECOND);
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(503), 2_000), hangs());

        // 2 s of wait and 5 s of median fit the 8 s left after the first failure at 2 s: the retry is cut at 10 s
        Ended ended = run(path, guard(RetryPolicy.defaults(), Duration.ofSeconds(60)), calls,
                Deadline.after(Duration.ofSeconds(10), clock));

        assertThat(calls.startMillis()).containsExactly(0L, 4_000L);
        assertThat(ended.failure()).isInstanceOf(DeadlineExceededException.class);
        assertThat(recorded.recorded()).as("the 503, and the retry had 6 s of a step that takes 5 s: a timeout")
                .containsExactly(Outcome.SERVER_ERROR, Outcome.TIMEOUT);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aTimeoutShorterThanTheTimeLeftStaysTheAttemptsOwn(Path path) {
        ScriptedCalls calls = new ScriptedCalls(clock, hangs(), answers("answer", 1_000));

        Ended ended = run(path, guard(RetryPolicy.defaults(), Duration.ofSeconds(3)), calls,
                Deadline.after(Duration.ofSeconds(30), clock));

        assertThat(ended.value()).isEqualTo("answer");
        assertThat(calls.startMillis()).containsExactly(0L, 5_000L);
        assertThat(recorded.recorded()).containsExactly(Outcome.TIMEOUT, Outcome.SUCCESS);
        assertThat(latency.recentSamples()).as("a timeout of its own and an answer are samples").isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aDeadlineThatHasPassedFailsWithoutACallAndWithoutARecord(Path path) {
        Deadline deadline = Deadline.after(Duration.ofSeconds(1), clock);
        clock.advance(Duration.ofSeconds(2));
        ScriptedCalls calls = new ScriptedCalls(clock, answers("answer", 0));

        Ended ended = run(path, guard(RetryPolicy.defaults(), null), calls, deadline);

        assertThat(ended.failure()).isInstanceOf(DeadlineExceededException.class);
        assertThat(((DeadlineExceededException) ended.failure()).called()).isFalse();
        assertThat(calls.startMillis()).isEmpty();
        assertThat(recorded.recorded()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aCallWithoutADeadlineIsNeitherCutNorRefused(Path path) {
        recentAnswersTaking(50 * SECOND);
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(503), 20_000), answers("late", 40_000));

        Ended ended = run(path, guard(RetryPolicy.defaults(), Duration.ofSeconds(60)), calls, Deadline.none());

        assertThat(ended.value()).isEqualTo("late");
        assertThat(calls.startMillis()).containsExactly(0L, 22_000L);
        assertThat(refusedByDeadline).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void eachAttemptIsToldTheTimeItHasLeft(Path path) {
        ScriptedCalls calls = new ScriptedCalls(clock, fails(new HttpStatusException(503), 1_000), answers("answer", 1_000));
        List<Long> timeLeft = new CopyOnWriteArrayList<>();
        List<Integer> numbers = new CopyOnWriteArrayList<>();
        Guard guard = guard(RetryPolicy.defaults(), Duration.ofSeconds(60));
        Deadline deadline = Deadline.after(Duration.ofSeconds(10), clock);

        if (path == Path.SYNC) {
            guard.execute(deadline, null, attempt -> {
                timeLeft.add(attempt.timeLeftNanos());
                numbers.add(attempt.attempt());
                return calls.sync().get();
            });
        } else {
            CompletableFuture<String> future = guard.executeAsync(deadline, null, attempt -> {
                timeLeft.add(attempt.timeLeftNanos());
                numbers.add(attempt.attempt());
                return calls.async().get();
            });
            for (int step = 0; step < 100 && !future.isDone(); step++) {
                clock.advanceMillis(100);
            }
            assertThat(future).isCompletedWithValue("answer");
        }

        // the 60 s timeout cut to the 10 s left, then to the 7 s left after a failure at 1 s and a wait of 2 s
        assertThat(timeLeft).containsExactly(10 * SECOND, 7 * SECOND);
        assertThat(numbers).containsExactly(1, 2);
    }

    // ---------------------------------------------------------------- the two paths

    record Ended(String value, Throwable failure, long atMillis) {
    }

    private Ended run(Path path, Guard guard, ScriptedCalls calls, Deadline deadline) {
        if (path == Path.SYNC) {
            try {
                String value = guard.execute(deadline, calls.sync());
                return new Ended(value, null, calls.nowMillis());
            } catch (RuntimeException failure) {
                return new Ended(null, failure, calls.nowMillis());
            }
        }
        ScriptedCalls.Outcome<String> ended = ScriptedCalls.driveToEnd(clock, guard.executeAsync(deadline, calls.async()), 3_600_000L);
        return new Ended(ended.value(), ended.failure(), ended.atMillis());
    }

    private Guard guard(RetryPolicy retry, Duration timeout) {
        breaker.addListener(recorded);
        return Guard.builder("model:sonnet").retry(retry).circuitBreaker(breaker).timeout(timeout)
                .latencyEstimate(latency).manualClock(clock)
                .retryListener(new RetryListener() {
                    @Override
                    public void onRetryRefusedByDeadline(String guard, int attempts, Throwable last, long remaining) {
                        refusedByDeadline.add(remaining);
                    }
                })
                .build();
    }

    private void recentAnswersTaking(long nanos) {
        for (int i = 0; i < LatencyEstimate.MIN_SAMPLES; i++) {
            latency.record(nanos);
        }
    }
}
