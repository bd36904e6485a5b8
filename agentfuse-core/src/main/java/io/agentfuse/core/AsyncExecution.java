package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.core.timeout.Timeout;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * One asynchronous guarded call: its attempts, its waits on the scheduler and its result. Lives
 * from {@link Guard#executeAsync} until the result completes; never blocks a thread. Every
 * decision is the synchronous path's, made by the guard's {@link Attempts}. An attempt may wait,
 * without a thread, for its breaker's permit while a fleet decides who probes
 * ({@link CircuitBreaker#acquire(LongConsumer)}); it then goes on where the scheduler says.
 */
final class AsyncExecution<T> extends CompletableFuture<T> implements LongConsumer {

    /** {@link #resume} once the breaker decided a pending permit before the attempt said where to go on. */
    private static final Object DECIDED = new Object();
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<AsyncExecution, Object> RESUME =
            AtomicReferenceFieldUpdater.newUpdater(AsyncExecution.class, Object.class, "resume");

    private final Guard guard;
    private final Attempts attempts;
    private final AttemptObserver observer;
    private final Supplier<? extends CompletionStage<T>> call;
    private final long deadline;
    private volatile CompletableFuture<T> inFlight;
    private volatile Scheduler.Cancellable pendingRetry;
    private int attempt;
    private long previousDelay;
    private AttemptResult last;
    /** The last attempt's failure as the callee raised it (what {@code execute} would throw), or null. */
    private Throwable lastFailure;
    private T lastValue;
    /** While a permit is pending: where to go on ({@link Executor}), or {@link #DECIDED}; null otherwise. */
    private volatile Object resume;
    private volatile long decidedPermit;

    AsyncExecution(Guard guard, AttemptObserver observer, Supplier<? extends CompletionStage<T>> call, long deadline) {
        this.guard = guard;
        this.attempts = guard.attempts();
        this.observer = observer;
        this.call = call;
        this.deadline = deadline;
        this.previousDelay = attempts.firstDelayNanos();
    }

    /** Makes the first attempt; the execution is its own result. */
    CompletableFuture<T> start() {
        attempt();
        return this;
    }

    /** Cancels the result, and with it the attempt in flight and any pending retry. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            cancelInFlight();
        }
        return cancelled;
    }

    private void attempt() {
        if (isDone()) {
            return;
        }
        attempt++;
        CircuitBreaker breaker = guard.circuitBreaker();
        if (breaker == null) {
            admitted(Attempts.NO_BREAKER);
            return;
        }
        long permit = breaker.acquire(this);
        if (permit == CircuitBreaker.PENDING) {
            Executor here = guard.scheduler().resumeHere();
            if (!RESUME.compareAndSet(this, null, here)) {
                resume = null; // decided already, possibly on this thread: go on here
                admitted(decidedPermit);
            }
            return;
        }
        admitted(permit);
    }

    /**
     * The breaker's permit for an attempt it had left {@link CircuitBreaker#PENDING} (the fleet
     * decides who probes): the attempt goes on where it started, as the scheduler says.
     */
    @Override
    public void accept(long permit) {
        decidedPermit = permit;
        Object where = RESUME.getAndSet(this, DECIDED);
        if (where instanceof Executor executor) {
            resume = null;
            executor.execute(() -> admitted(permit));
        }
    }

    private void admitted(long permit) {
        if (permit == CircuitBreaker.NOT_PERMITTED) {
            refused(guard.circuitBreaker().currentRejection().exception());
            return;
        }
        if (isDone()) {
            attempts.release(permit); // cancelled while the fleet decided
            return;
        }
        Bulkhead bulkhead = guard.bulkhead();
        if (bulkhead == null || bulkhead.tryAcquire()) {
            invoke(permit); // no stage to wait on when a place is free at once
            return;
        }
        bulkhead.acquireAsync().whenComplete((ignored, full) -> {
            if (full != null) {
                attempts.release(permit);
                refused(bulkhead.rejection());
            } else if (isDone()) {
                bulkhead.release();
                attempts.release(permit);
            } else {
                invoke(permit);
            }
        });
    }

    /** A retry refused by the breaker or the bulkhead: ends as the synchronous path does. */
    private void refused(RuntimeException rejection) {
        if (last != null && last.cause() == null) {
            complete(lastValue);
        } else {
            completeExceptionally(Attempts.stopped(lastFailure, rejection));
        }
    }

    private void invoke(long permit) {
        if (attempt == 1) {
            attempts.depositToBudget();
        }
        Clock timer = attempts.timer();
        long start = timer == null ? 0L : timer.nanoTime();
        CompletableFuture<T> call;
        try {
            call = this.call.get().toCompletableFuture();
        } catch (RuntimeException | Error thrown) {
            call = CompletableFuture.failedFuture(thrown);
        }
        inFlight = call;
        if (isCancelled()) {
            call.cancel(true); // cancelled before the call was known to cancel()
        }
        AttemptEnd end = new AttemptEnd(permit, timer, start, call);
        Timeout timeout = guard.timeout();
        if (timeout != null && !call.isDone()) {
            end.limit = timeout.start(end);
        }
        call.whenComplete(end);
    }

    /**
     * How one attempt ends: with its call's answer or with its timeout, whichever comes first, once.
     * The timeout cancels the call (which aborts its work) and the call's late answer is ignored;
     * an answer cancels the timer. One object per attempt instead of a second future around the
     * call only to race it against the timer.
     */
    private final class AttemptEnd extends AtomicBoolean implements BiConsumer<T, Throwable>, Runnable {
        private final long permit;
        private final Clock timer;
        private final long start;
        private final CompletableFuture<T> call;
        /** Set before the call's completion is followed, so whoever ends the attempt sees it. */
        private Scheduler.Cancellable limit;

        AttemptEnd(long permit, Clock timer, long start, CompletableFuture<T> call) {
            this.permit = permit;
            this.timer = timer;
            this.start = start;
            this.call = call;
        }

        @Override
        public void accept(T value, Throwable error) {
            if (limit != null) {
                limit.cancel();
            }
            end(value, error);
        }

        /** The timeout: the limit passed before the call ended. */
        @Override
        public void run() {
            if (compareAndSet(false, true)) {
                call.cancel(true);
                finishOrFail(permit, null, new CallTimeoutException(guard.timeout().duration()),
                        Attempts.elapsedSince(timer, start));
            }
        }

        private void end(T value, Throwable error) {
            if (compareAndSet(false, true)) {
                finishOrFail(permit, value, error, Attempts.elapsedSince(timer, start));
            }
        }
    }

    private void finishOrFail(long permit, T value, Throwable error, long durationNanos) {
        try {
            finish(permit, value, error, durationNanos);
        } catch (RuntimeException | Error unexpected) {
            // A throwing token counter, classifier rule or listener must not leave the caller waiting forever.
            completeExceptionally(unexpected);
        }
    }

    private void finish(long permit, T value, Throwable error, long durationNanos) {
        if (guard.bulkhead() != null) {
            guard.bulkhead().release();
        }
        // As the callee raised it: the future's wrappers go, its own (an UncheckedIOException) stay, as with execute.
        Throwable failure = error == null ? null : OutcomeClassifier.unwrapFuture(error);
        if (failure instanceof CancellationException && isCancelled()) {
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
        if (isDone()) {
            return;
        }
        long delay = outcome == null ? -1 : attempts.nextDelayNanos(attempt, previousDelay, outcome, deadline);
        if (delay < 0) {
            if (failure == null) {
                complete(value);
            } else {
                completeExceptionally(failure);
            }
            return;
        }
        previousDelay = delay;
        last = outcome;
        lastFailure = failure;
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
