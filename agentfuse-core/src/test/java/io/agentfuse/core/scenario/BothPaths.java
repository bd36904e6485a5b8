package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.GuardBuilder;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a scenario through {@link Guard#execute} or {@link Guard#executeAsync}, so that the parity tests can
 * hold the two paths to ending the same way at the same times: they share one decision code. Each attempt's
 * time is recorded in {@link #attemptMillis}; all on a {@link ManualClock}.
 */
final class BothPaths {

    /** The two halves of the guard. */
    enum Path { SYNC, ASYNC }

    final ManualClock clock = new ManualClock();
    final List<Long> attemptMillis = new CopyOnWriteArrayList<>();
    private Runnable duringFirstWait = () -> { };

    final CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(5)).resetTimeout(Duration.ofMinutes(5)).build(), clock);

    record Ended(Object value, Throwable failure) {
    }

    Ended run(Path path, Guard guard, IntFunction<RuntimeException> failureOfAttempt) {
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

    Supplier<String> failingCall(IntFunction<RuntimeException> failureOfAttempt) {
        return () -> {
            attemptMillis.add(clock.nanoTime() / 1_000_000L);
            RuntimeException failure = failureOfAttempt.apply(attemptMillis.size());
            if (failure != null) {
                throw failure;
            }
            return "answer";
        };
    }

    Supplier<CompletableFuture<String>> asyncCall(IntFunction<RuntimeException> failureOfAttempt) {
        Supplier<String> call = failingCall(failureOfAttempt);
        return () -> {
            try {
                return CompletableFuture.completedFuture(call.get());
            } catch (RuntimeException failure) {
                return CompletableFuture.failedFuture(failure);
            }
        };
    }

    Guard guard(RetryPolicy retry) {
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

    /** Runs {@code hook} at the first wait for a retry, on either path: another caller acting meanwhile. */
    void duringFirstWait(Runnable hook) {
        duringFirstWait = hook;
    }

    void runFirstWaitHook() {
        Runnable hook = duringFirstWait;
        duringFirstWait = () -> { };
        hook.run();
    }

    /** Five failures of other callers, each with its own permit. */
    void tripByAnotherCaller() {
        for (int i = 0; i < 5; i++) {
            breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, 1_000L, -1L);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    static Throwable catchFailure(Runnable run) {
        try {
            run.run();
            return null;
        } catch (RuntimeException failure) {
            return failure;
        }
    }

    static Throwable unwrap(Throwable error) {
        return OutcomeClassifier.unwrap(error);
    }
}
