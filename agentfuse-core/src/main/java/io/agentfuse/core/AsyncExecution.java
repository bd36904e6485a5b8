package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One asynchronous guarded call: its attempts, its waits on the scheduler and its result. Lives
 * from {@link Guard#executeAsync} until the result completes; never blocks a thread.
 */
final class AsyncExecution<T> {

    private final Guard guard;
    private final Supplier<? extends CompletionStage<T>> call;
    private final long deadline;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private volatile CompletableFuture<T> inFlight;
    private volatile Scheduler.Cancellable pendingRetry;
    private int attempt;
    private long previousDelay;

    AsyncExecution(Guard guard, Supplier<? extends CompletionStage<T>> call, long deadline) {
        this.guard = guard;
        this.call = call;
        this.deadline = deadline;
        this.previousDelay = guard.retryPolicy().initialDelay().toNanos();
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
        CircuitBreaker breaker = guard.circuitBreaker();
        if (breaker != null && !breaker.tryAcquirePermission()) {
            result.completeExceptionally(breaker.currentRejection().exception());
            return;
        }
        Bulkhead bulkhead = guard.bulkhead();
        if (bulkhead == null) {
            invoke();
            return;
        }
        bulkhead.acquireAsync().whenComplete((ignored, full) -> {
            if (full != null) {
                guard.releaseBreakerPermission();
                result.completeExceptionally(bulkhead.rejection());
            } else if (result.isDone()) {
                bulkhead.release();
                guard.releaseBreakerPermission();
            } else {
                invoke();
            }
        });
    }

    private void invoke() {
        if (attempt == 1) {
            guard.depositToBudget();
        }
        long start = guard.clock().nanoTime();
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
                finish(value, error, guard.clock().nanoTime() - start);
            } catch (RuntimeException | Error unexpected) {
                // A throwing token counter, classifier rule or listener must not leave the caller waiting forever.
                result.completeExceptionally(unexpected);
            }
        });
    }

    private void finish(T value, Throwable error, long durationNanos) {
        if (guard.bulkhead() != null) {
            guard.bulkhead().release();
        }
        Throwable failure = error == null ? null : OutcomeClassifier.unwrap(error);
        if (failure instanceof CancellationException && result.isCancelled()) {
            // Our caller gave up (e.g. a client hung up): the callee neither failed nor succeeded.
            guard.releaseBreakerPermission();
            return;
        }
        Outcome outcome;
        if (failure == null) {
            guard.recordResult(value, durationNanos);
            outcome = guard.classifier().hasResultRules() ? guard.classifier().classifyResult(value) : Outcome.SUCCESS;
        } else {
            guard.recordFailure(failure, durationNanos);
            outcome = guard.classifier().classify(failure);
        }
        if (result.isDone()) {
            return;
        }
        long delay = outcome == Outcome.SUCCESS ? -1
                : guard.nextDelayNanos(attempt, previousDelay, outcome, failure, deadline);
        if (delay < 0) {
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(failure);
            }
            return;
        }
        previousDelay = delay;
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
