package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.internal.LostAnswers;
import io.agentfuse.core.internal.TimeLeft;
import io.agentfuse.core.timeout.DeadlineExceededException;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * One asynchronous guarded call: its attempts ({@link AsyncAttempt}), its waits on the scheduler
 * and its result. Lives from {@link Guard#executeAsync} until the result completes; never blocks a
 * thread. Every decision is the synchronous path's, made by the guard's {@link Attempts}. An
 * attempt may wait, without a thread, for its breaker's permit while a fleet decides who probes
 * ({@link CircuitBreaker#acquire(LongConsumer)}); it then goes on where the scheduler says. Under a
 * {@link HedgePolicy} each try is an {@link AttemptRace} of its attempt and at most one hedge.
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
    /** A {@code Supplier} of the call's stage, or a {@code Function} of its {@link AttemptContext} to it. */
    private final Object call;
    private final boolean callTakesContext;
    private final Deadline requestDeadline;
    private final long policyDeadline;
    private final long deadline;
    private volatile AsyncAttempt<T> current;
    private volatile AttemptRace<T> race;
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

    AsyncExecution(Guard guard, Deadline requestDeadline, AttemptObserver observer, Object call, boolean callTakesContext) {
        this.guard = guard;
        this.attempts = guard.attempts();
        this.observer = observer;
        this.call = call;
        this.callTakesContext = callTakesContext;
        this.requestDeadline = requestDeadline;
        this.policyDeadline = attempts.policyDeadlineFromNow();
        this.deadline = attempts.deadlineOf(policyDeadline, requestDeadline);
        this.previousDelay = attempts.firstDelayNanos();
    }

    /** Makes the first attempt, unless the deadline has passed already; the execution is its own result. */
    CompletableFuture<T> start() {
        if (deadline != TimeLeft.NO_DEADLINE && TimeLeft.remaining(deadline, guard.clock().nanoTime()) == 0L) {
            completeExceptionally(DeadlineExceededException.beforeCalling(guard.name()));
            return this;
        }
        attempt();
        return this;
    }

    /** Cancels the result, and with it the attempts in flight and any pending retry. */
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
        HedgePolicy hedge = guard.hedgePolicy();
        if (attempt == 1) {
            attempts.depositToBudget();
            if (hedge != null) {
                hedge.budget().countRequest();
            }
        }
        AsyncAttempt<T> next = new AsyncAttempt<>(this, permit, attempt, false);
        current = next;
        if (hedge == null) {
            next.start();
            return;
        }
        AttemptRace<T> thisTry = new AttemptRace<>(this, next);
        next.race = thisTry;
        race = thisTry;
        next.start();
        thisTry.armHedge(hedge);
    }

    /** Runs the guarded call for {@code attempt}. */
    @SuppressWarnings("unchecked")
    CompletionStage<T> call(AsyncAttempt<T> attempt) {
        return callTakesContext
                ? ((Function<? super AttemptContext, ? extends CompletionStage<T>>) call).apply(attempt)
                : ((Supplier<? extends CompletionStage<T>>) call).get();
    }

    /** {@code attempt} signalled its first content: it wins its race, if it has one, and counts as answered for latency. */
    void firstContent(AsyncAttempt<T> attempt, long elapsedNanos) {
        if (attempt.race != null && !attempt.race.claim(attempt)) {
            return; // the other attempt won already; this one is being abandoned
        }
        attempt.sampledAtFirstContent = true;
        attempts.sampleLatency(elapsedNanos);
        if (observer != null) {
            observer.onFirstContent(attempt);
        }
    }

    /** {@code attempt} lost its race before it ended: its place and permit are given back, nothing is recorded. */
    void abandoned(AsyncAttempt<T> attempt) {
        if (guard.bulkhead() != null) {
            guard.bulkhead().release();
        }
        attempts.release(attempt.permit);
    }

    void finishOrFail(AsyncAttempt<T> ended, T value, Throwable error, long durationNanos) {
        try {
            finish(ended, value, error, durationNanos);
        } catch (RuntimeException | Error unexpected) {
            // A throwing token counter, classifier rule or listener must not leave the caller waiting forever.
            completeExceptionally(unexpected);
        }
    }

    private void finish(AsyncAttempt<T> ended, T value, Throwable error, long durationNanos) {
        if (guard.bulkhead() != null) {
            guard.bulkhead().release();
        }
        // As the callee raised it: the future's wrappers go, its own (an UncheckedIOException) stay, as with execute.
        Throwable failure = error == null ? null : OutcomeClassifier.unwrapFuture(error);
        if (failure instanceof CancellationException && isCancelled()) {
            // Our caller gave up (e.g. a client hung up): the callee neither failed nor succeeded.
            attempts.release(ended.permit);
            return;
        }
        AttemptRace<T> thisTry = ended.race;
        if (failure == null && thisTry != null && !thisTry.claim(ended)) {
            // Answered after the other attempt of its race won: neither a success nor a failure.
            attempts.release(ended.permit);
            LostAnswers.close(value);
            return;
        }
        boolean sample = !ended.sampledAtFirstContent;
        AttemptResult outcome;
        if (failure == null) {
            outcome = attempts.returned(ended.permit, value, durationNanos, sample);
            Attempts.reportReturned(observer, outcome, durationNanos);
        } else {
            outcome = attempts.failed(ended.permit, failure, durationNanos, sample);
            Attempts.report(observer, outcome);
        }
        if (isDone() || failure != null && thisTry != null && !thisTry.lastToEnd(ended)) {
            return; // or the other attempt of its race still runs, or won: that one decides
        }
        long delay = outcome == null ? -1 : attempts.nextDelayNanos(attempt, previousDelay, outcome, policyDeadline, deadline);
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
        AttemptRace<T> thisTry = race;
        if (thisTry != null) {
            thisTry.cancelAll();
            return;
        }
        AsyncAttempt<T> attempt = current;
        if (attempt != null) {
            attempt.cancelCall();
        }
    }

    Guard guard() {
        return guard;
    }

    Attempts attempts() {
        return attempts;
    }

    boolean callTakesContext() {
        return callTakesContext;
    }

    Deadline requestDeadline() {
        return requestDeadline;
    }

    long deadline() {
        return deadline;
    }
}
