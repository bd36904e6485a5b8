package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One asynchronous guarded call: its attempts, its waits on the scheduler and its result. Lives
 * from {@link Guard#executeAsync} until the result completes; never blocks a thread. Every
 * decision is the synchronous path's, made by the guard's {@link Attempts}.
 */
final class AsyncExecution<T> {

    private final Guard guard;
    private final Attempts attempts;
    private final AttemptObserver observer;
    private final Supplier<? extends CompletionStage<T>> call;
    private final long deadline;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private volatile CompletableFuture<T> inFlight;
    private volatile Scheduler.Cancellable pendingRetry;
    private int attempt;
    private long previousDelay;
    private AttemptResult last;
    private T lastValue;

    AsyncExecution(Guard guard, AttemptObserver observer, Supplier<? extends CompletionStage<T>> call, long deadline) {
        this.guard = guard;
        this.attempts = guard.attempts();
        this.observer = observer;
        this.call = call;
        this.deadline = deadline;
        this.previousDelay = attempts.firstDelayNanos();
    }

    CompletableFuture<T> start() {
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                cancelInFlight();
            }
        });
        attempt();
        return result;
    }

    private void attempt() {
        if (result.isDone()) {
            return;
        }
        attempt++;
        long permit = Attempts.NO_BREAKER;
        if (guard.circuitBreaker() != null) {
            permit = guard.circuitBreaker().acquire();
            if (permit == CircuitBreaker.NOT_PERMITTED) {
                refused(guard.circuitBreaker().currentRejection().exception());
                return;
            }
        }
        long granted = permit;
        Bulkhead bulkhead = guard.bulkhead();
        if (bulkhead == null) {
            invoke(granted);
            return;
        }
        bulkhead.acquireAsync().whenComplete((ignored, full) -> {
            if (full != null) {
                attempts.release(granted);
                refused(bulkhead.rejection());
            } else if (result.isDone()) {
                bulkhead.release();
                attempts.release(granted);
            } else {
                invoke(granted);
            }
        });
    }

    /** A retry refused by the breaker or the bulkhead: ends as the synchronous path does. */
    private void refused(RuntimeException rejection) {
        if (last != null && last.cause() == null) {
            result.complete(lastValue);
        } else {
            result.completeExceptionally(Attempts.stopped(last == null ? null : last.cause(), rejection));
        }
    }

    private void invoke(long permit) {
        if (attempt == 1) {
            attempts.depositToBudget();
        }
        Clock timer = attempts.timer();
        long start = timer == null ? 0L : timer.nanoTime();
        CompletableFuture<T> attemptFuture;
        try {
            CompletionStage<T> stage = call.get();
            attemptFuture = guard.timeout() == null ? stage.toCompletableFuture() : guard.timeout().within(stage);
        } catch (RuntimeException | Error thrown) {
            attemptFuture = CompletableFuture.failedFuture(thrown);
        }
        inFlight = attemptFuture;
        attemptFuture.whenComplete((value, error) -> {
            try {
                finish(permit, value, error, Attempts.elapsedSince(timer, start));
            } catch (RuntimeException | Error unexpected) {
                // A throwing token counter, classifier rule or listener must not leave the caller waiting forever.
                result.completeExceptionally(unexpected);
            }
        });
    }

    private void finish(long permit, T value, Throwable error, long durationNanos) {
        if (guard.bulkhead() != null) {
            guard.bulkhead().release();
        }
        Throwable failure = error == null ? null : OutcomeClassifier.unwrap(error);
        if (failure instanceof CancellationException && result.isCancelled()) {
            // Our caller gave up (e.g. a client hung up): the callee neither failed nor succeeded.
            attempts.release(permit);
            return;
        }
        AttemptResult outcome;
        if (failure == null) {
            outcome = attempts.returned(permit, value, durationNanos);
            Attempts.reportReturned(observer, outcome, durationNanos);
        } else {
            outcome = attempts.failed(permit, failure, durationNanos);
            Attempts.report(observer, outcome);
        }
        if (result.isDone()) {
            return;
        }
        long delay = outcome == null ? -1 : attempts.nextDelayNanos(attempt, previousDelay, outcome, deadline);
        if (delay < 0) {
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(failure);
            }
            return;
        }
        previousDelay = delay;
        last = outcome;
        lastValue = value;
        pendingRetry = guard.scheduler().schedule(this::attempt, delay);
    }

    private void cancelInFlight() {
        Scheduler.Cancellable retry = pendingRetry;
        if (retry != null) {
            retry.cancel();
        }
        CompletableFuture<T> current = inFlight;
        if (current != null) {
            current.cancel(true);
        }
    }
}
