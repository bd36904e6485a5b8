package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.GuardBuilder;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every scenario runs twice, through {@link Guard#execute} and {@link Guard#executeAsync}, and
 * must end the same way at the same times: the two paths share one decision code, and this
 * suite holds them to it. All on a {@link ManualClock}.
 */
class SyncAsyncParityTest {

    /** The two halves of the guard. */
    enum Path { SYNC, ASYNC }

    private final ManualClock clock = new ManualClock();
    private final List<Long> attemptMillis = new CopyOnWriteArrayList<>();
    private Runnable duringFirstWait = () -> { };

    private final CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(5)).resetTimeout(Duration.ofMinutes(5)).build(), clock);

    @ParameterizedTest
    @EnumSource(Path.class)
    void aSuccessIsReturnedAfterOneAttempt(Path path) {
        Ended ended = run(path, guard(RetryPolicy.defaults()), attempt -> null);

        assertThat(ended.value).isEqualTo("answer");
        assertThat(attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aServerErrorIsRetriedOnTheSeedTimelineUntilItSucceeds(Path path) {
        Ended ended = run(path, guard(RetryPolicy.defaults()), attempt -> attempt < 3 ? new HttpStatusException(500) : null);

        assertThat(ended.value).isEqualTo("answer");
        assertThat(attemptMillis).containsExactly(0L, 2_000L, 6_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aClientErrorIsNeverRetried(Path path) {
        Ended ended = run(path, guard(RetryPolicy.defaults()), attempt -> new HttpStatusException(400));

        assertThat(ended.failure).isInstanceOf(HttpStatusException.class);
        assertThat(attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void fourFailuresGiveUpWithTheLastError(Path path) {
        Ended ended = run(path, guard(RetryPolicy.defaults()), attempt -> HttpStatusException.builder(503).body("#" + attempt).build());

        assertThat(ended.failure).hasMessageContaining("#4");
        assertThat(attemptMillis).containsExactly(0L, 2_000L, 6_000L, 14_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aBreakerOpenedByAnotherCallerDuringTheBackoffEndsWithTheRealFailure(Path path) {
        // Given another caller trips the breaker while this call waits to retry
        duringFirstWait = this::tripByAnotherCaller;

        Ended ended = run(path, guard(RetryPolicy.defaults()), attempt -> new HttpStatusException(502));

        // Then the call was made, so it ends with its failure, never with circuit_open
        assertThat(ended.failure).isInstanceOf(HttpStatusException.class);
        assertThat(attemptMillis).containsExactly(0L);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aChainStepThatWasCalledIsNeverReportedAsSkippedWhenItsBreakerOpensMeanwhile(Path path) {
        duringFirstWait = this::tripByAnotherCaller;
        Guard guard = guard(RetryPolicy.defaults());
        Throwable thrown;
        if (path == Path.SYNC) {
            thrown = catchFailure(() -> FallbackChain.<String, String>builder()
                    .step("sonnet", guard, prompt -> failingCall(attempt -> new HttpStatusException(502)).get())
                    .giveUp().build().execute("hi"));
        } else {
            CompletableFuture<?> future = FallbackChain.<String, String>builder()
                    .asyncStep("sonnet", guard, prompt -> asyncCall(attempt -> new HttpStatusException(502)).get())
                    .giveUp().build().executeAsync("hi");
            for (int step = 0; step < 600 && !future.isDone(); step++) {
                clock.advanceMillis(100);
            }
            thrown = future.handle((value, error) -> error).join();
        }

        StepFailure step = ((FallbackExhaustedException) unwrap(thrown)).steps().get(0);
        assertThat(step.skipped()).as("the step was called").isFalse();
        assertThat(step.outcome()).isEqualTo(Outcome.SERVER_ERROR);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aBreakerOpenBeforeTheFirstAttemptRejectsWithoutACall(Path path) {
        tripByAnotherCaller();

        Ended ended = run(path, guard(RetryPolicy.defaults()), attempt -> null);

        assertThat(ended.failure).isInstanceOf(CircuitOpenException.class);
        assertThat(attemptMillis).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aShortRetryAfterIsWaitedOut(Path path) {
        Ended ended = run(path, guard(RetryPolicy.defaults()),
                attempt -> attempt == 1 ? HttpStatusException.builder(429).retryAfter("7").build() : null);

        assertThat(ended.value).isEqualTo("answer");
        assertThat(attemptMillis).containsExactly(0L, 7_000L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetryAfterLongerThanMaxDelayFallsOverAtOnceAndHoldsTheBreakerOpen(Path path) {
        Ended ended = run(path, guard(RetryPolicy.defaults()),
                attempt -> HttpStatusException.builder(429).retryAfter("600").build());

        assertThat(ended.failure).isInstanceOf(HttpStatusException.class);
        assertThat(attemptMillis).containsExactly(0L);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.rejection().retryAfter()).hasValue(Duration.ofSeconds(600));
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetryAfterPastTheDeadlineFallsOverAtOnce(Path path) {
        RetryPolicy withDeadline = RetryPolicy.builder().deadline(Duration.ofSeconds(5)).build();

        Ended ended = run(path, guard(withDeadline), attempt -> HttpStatusException.builder(429).retryAfter("7").build());

        assertThat(ended.failure).isInstanceOf(HttpStatusException.class);
        assertThat(attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anInnerBreakersRejectionIsNeitherRetriedNorCountedByTheOuterBreaker(Path path) {
        CircuitBreaker inner = CircuitBreaker.of("tool:search/web", CircuitBreakerConfig.defaults(), clock);
        inner.forceOpen("maintenance");
        CircuitOpenException innerRejection = inner.currentRejection().exception();

        Ended ended = run(path, guard(RetryPolicy.builder().retryOn(Outcome.ERROR).build()), attempt -> innerRejection);

        assertThat(ended.failure).isSameAs(innerRejection);
        assertThat(attemptMillis).containsExactly(0L);
        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void aRetriedResultWhoseRetryTheBreakerRefusesIsReturnedNotRejected(Path path) {
        // Given answers that a result rule calls server errors, and another caller tripping the breaker meanwhile
        duringFirstWait = this::tripByAnotherCaller;
        Guard guard = Guard.builder("model:sonnet").retry(RetryPolicy.defaults()).circuitBreaker(breaker)
                .classifier(OutcomeClassifier.builder().resultRule("answer"::equals, Outcome.SERVER_ERROR).build())
                .manualClock(clock).sleeper(nanos -> {
                    runFirstWaitHook();
                    clock.sleep(nanos);
                }).scheduler((task, delayNanos) -> {
                    runFirstWaitHook();
                    return clock.schedule(task, delayNanos);
                }).build();

        Ended ended = run(path, guard, attempt -> null);

        // Then the answer that was received is returned
        assertThat(ended.value).isEqualTo("answer");
        assertThat(attemptMillis).containsExactly(0L);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anOverTheLimitAnswerIsReturnedAndCountedAsTokenOveruseWithoutRetry(Path path) {
        CircuitBreaker tokens = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
                .trigger(Trigger.tokenOveruse(100)).build(), clock);
        Guard guard = Guard.builder("model:sonnet").retry(RetryPolicy.defaults()).circuitBreaker(tokens)
                .tokens(answer -> 500).manualClock(clock).build();

        Ended ended = run(path, guard, attempt -> null);

        assertThat(ended.value).isEqualTo("answer");
        assertThat(attemptMillis).containsExactly(0L);
        assertThat(tokens.state()).isEqualTo(CircuitState.OPEN);
    }

    // ---------------------------------------------------------------- the two paths

    private record Ended(Object value, Throwable failure) {
    }

    private Ended run(Path path, Guard guard, IntFunction<RuntimeException> failureOfAttempt) {
        if (path == Path.SYNC) {
            try {
                return new Ended(guard.execute(failingCall(failureOfAttempt)), null);
            } catch (RuntimeException failure) {
                return new Ended(null, failure);
            }
        }
        CompletableFuture<String> future = guard.executeAsync(asyncCall(failureOfAttempt));
        clock.runDueTasks();
        for (int step = 0; step < 6_000 && !future.isDone(); step++) {
            clock.advanceMillis(100); // runs each scheduled retry at its due time
        }
        assertThat(future).isDone();
        return future.handle((value, error) -> new Ended(value, error == null ? null : unwrap(error))).join();
    }

    private Supplier<String> failingCall(IntFunction<RuntimeException> failureOfAttempt) {
        return () -> {
            attemptMillis.add(clock.nanoTime() / 1_000_000L);
            RuntimeException failure = failureOfAttempt.apply(attemptMillis.size());
            if (failure != null) {
                throw failure;
            }
            return "answer";
        };
    }

    private Supplier<CompletableFuture<String>> asyncCall(IntFunction<RuntimeException> failureOfAttempt) {
        Supplier<String> call = failingCall(failureOfAttempt);
        return () -> {
            try {
                return CompletableFuture.completedFuture(call.get());
            } catch (RuntimeException failure) {
                return CompletableFuture.failedFuture(failure);
            }
        };
    }

    private Guard guard(RetryPolicy retry) {
        GuardBuilder builder = Guard.builder("model:sonnet").retry(retry).circuitBreaker(breaker).manualClock(clock);
        // The first wait of either path runs the hook, then waits on the manual clock.
        builder.sleeper(nanos -> {
            runFirstWaitHook();
            clock.sleep(nanos);
        });
        builder.scheduler((task, delayNanos) -> {
            runFirstWaitHook();
            return clock.schedule(task, delayNanos);
        });
        return builder.build();
    }

    private void runFirstWaitHook() {
        Runnable hook = duringFirstWait;
        duringFirstWait = () -> { };
        hook.run();
    }

    /** Five failures of other callers, each with its own permit. */
    private void tripByAnotherCaller() {
        for (int i = 0; i < 5; i++) {
            breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, 1_000L, -1L);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    private static Throwable catchFailure(Runnable run) {
        try {
            run.run();
            return null;
        } catch (RuntimeException failure) {
            return failure;
        }
    }

    private static Throwable unwrap(Throwable error) {
        return io.agentfuse.core.OutcomeClassifier.unwrap(error);
    }
}
