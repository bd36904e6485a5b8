package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.event.HedgeListener;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.internal.TimeLeft;

/**
 * One try of a hedged asynchronous call: its attempt and at most one hedge started beside it
 * (docs/design.md §13). The first of them to produce a result (an answer, or its first content)
 * wins; the other is abandoned at once, its permit and bulkhead place given back without an
 * outcome. A failure does not end the race while the other attempt still runs: the last to fail
 * decides what follows (retry or give up), as a lone attempt would. The hedge is started by the
 * policy's timer only while the attempt runs alone without a result, and only if it fits the
 * deadline, its breaker and bulkhead let it through and the budget allows it. Decisions are made
 * under the race's lock; starting, cancelling and abandoning happen outside it.
 */
final class AttemptRace<T> {

    private final AsyncExecution<T> execution;
    private final AsyncAttempt<T> primary;
    private final String name;
    private final HedgeListener listener;
    private AsyncAttempt<T> hedge;
    private AsyncAttempt<T> winner;
    private int running = 1;
    private Scheduler.Cancellable timer;

    AttemptRace(AsyncExecution<T> execution, AsyncAttempt<T> primary) {
        this.execution = execution;
        this.primary = primary;
        this.name = execution.guard().name();
        this.listener = execution.guard().hedgeListener();
    }

    /** Arms the hedge timer of {@code policy} for the attempt that has just started. */
    void armHedge(HedgePolicy policy) {
        Guard guard = execution.guard();
        long delay = policy.delayNanos(guard.latencyEstimate());
        if (delay >= 0) { // an adaptive delay is unknown until the step has enough recent samples
            arm(guard.scheduler().schedule(this::hedgeDue, delay));
        }
    }

    /** The hedge delay passed: starts a hedge of the same call, if it may. */
    private void hedgeDue() {
        if (execution.isDone() || !awaitsFirstResult()) {
            return;
        }
        Guard guard = execution.guard();
        Attempts attempts = execution.attempts();
        long deadline = execution.deadline();
        if (deadline != TimeLeft.NO_DEADLINE && !TimeLeft.fits(
                TimeLeft.remaining(deadline, guard.clock().nanoTime()), 0L, attempts.medianNanos())) {
            refused(HedgeListener.Refusal.NO_TIME);
            return;
        }
        CircuitBreaker breaker = guard.circuitBreaker();
        long permit = breaker == null ? Attempts.NO_BREAKER : breaker.acquire();
        if (permit == CircuitBreaker.NOT_PERMITTED) {
            refused(HedgeListener.Refusal.REJECTED);
            return;
        }
        Bulkhead bulkhead = guard.bulkhead();
        if (bulkhead != null && !bulkhead.tryAcquire()) {
            attempts.release(permit);
            refused(HedgeListener.Refusal.REJECTED);
            return;
        }
        boolean budgeted = guard.hedgePolicy().budget().tryHedge();
        AsyncAttempt<T> started = new AsyncAttempt<>(execution, permit, primary.attempt(), true);
        started.race = this;
        if (!budgeted || !addHedge(started)) {
            if (bulkhead != null) {
                bulkhead.release();
            }
            attempts.release(permit);
            if (!budgeted) {
                refused(HedgeListener.Refusal.BUDGET);
            }
            return; // or the first result came meanwhile
        }
        if (listener != null) {
            listener.onHedgeStarted(name, name);
        }
        started.start();
    }

    private void refused(HedgeListener.Refusal reason) {
        if (listener != null) {
            listener.onHedgeRefused(name, reason);
        }
    }

    /** Keeps the hedge timer, or cancels it at once if the race was decided before it was armed. */
    private void arm(Scheduler.Cancellable hedgeTimer) {
        synchronized (this) {
            if (awaitsFirstResult()) {
                timer = hedgeTimer;
                return;
            }
        }
        hedgeTimer.cancel();
    }

    /** Whether the attempt still runs alone, with no result yet: the only time a hedge may start. */
    synchronized boolean awaitsFirstResult() {
        return winner == null && hedge == null && running == 1;
    }

    /** Adds {@code started} as the hedge; false if the race moved on meanwhile (it must not start). */
    private synchronized boolean addHedge(AsyncAttempt<T> started) {
        if (!awaitsFirstResult()) {
            return false;
        }
        hedge = started;
        running++;
        timer = null;
        return true;
    }

    /**
     * {@code attempt} produced a result: it wins unless the other did first. The winner's rival is
     * abandoned. Returns whether {@code attempt} is the winner.
     */
    boolean claim(AsyncAttempt<T> attempt) {
        AsyncAttempt<T> loser;
        Scheduler.Cancellable pending;
        synchronized (this) {
            if (winner != null) {
                return winner == attempt;
            }
            winner = attempt;
            loser = attempt == primary ? hedge : primary;
            pending = timer;
            timer = null;
        }
        if (pending != null) {
            pending.cancel();
        }
        if (loser != null) {
            loser.abandon();
        }
        if (attempt.isHedge() && listener != null) {
            listener.onHedgeWon(name, name);
        }
        return true;
    }

    /**
     * {@code attempt} failed: returns whether it decides what the call does next — it was the last
     * one running with no winner, or it is the winner (it failed after its first content, and its
     * rival was abandoned then). A lone attempt's failure also cancels the hedge timer.
     */
    boolean lastToEnd(AsyncAttempt<T> attempt) {
        Scheduler.Cancellable pending;
        boolean last;
        synchronized (this) {
            running--;
            last = winner == null ? running == 0 : winner == attempt;
            pending = last ? timer : null;
            if (last) {
                timer = null;
            }
        }
        if (pending != null) {
            pending.cancel();
        }
        return last;
    }

    /** The caller gave up: cancels the timer and both calls. */
    void cancelAll() {
        Scheduler.Cancellable pending;
        AsyncAttempt<T> second;
        synchronized (this) {
            pending = timer;
            timer = null;
            second = hedge;
        }
        if (pending != null) {
            pending.cancel();
        }
        primary.cancelCall();
        if (second != null) {
            second.cancelCall();
        }
    }
}
