package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

import java.util.function.LongConsumer;

/**
 * One state of a {@link CircuitBreaker}: decides on permission and on recorded outcomes while it
 * is current. A state object is never reused: every transition installs a fresh one with a CAS,
 * so counters start clean. Each state has its own {@link #stamp}, which is the permit it hands
 * out: an outcome that comes back with another state's stamp belongs to an earlier state (a late
 * answer, a written-off probe) and is not counted.
 */
abstract class AbstractState {

    final CircuitBreaker breaker;
    final long stamp;

    AbstractState(CircuitBreaker breaker) {
        this.breaker = breaker;
        this.stamp = breaker.nextStamp();
    }

    abstract CircuitState kind();

    /**
     * The permit for a call that may proceed now (the stamp of the state that let it through,
     * which may be a successor this call installed), or {@link CircuitBreaker#NOT_PERMITTED}. Must be cheap.
     */
    abstract long tryAcquire();

    /**
     * {@link #tryAcquire()} for a caller that can wait without blocking: only a HALF_OPEN state
     * whose fleet is deciding who probes returns {@link CircuitBreaker#PENDING} and hands
     * {@code waiter} the permit later; every other state answers at once, as {@link #tryAcquire()}.
     */
    long tryAcquire(LongConsumer waiter) {
        return tryAcquire();
    }

    /** Records the outcome of a call that this state permitted. */
    abstract void record(Outcome outcome, long durationNanos, long retryAfterNanos);

    /**
     * Takes note of an outcome of a call permitted by an earlier state: it does not count, but a
     * server's {@code Retry-After} may still extend an open time.
     */
    void recordLate(long retryAfterNanos) {
    }

    /** Whether outcomes are recorded at all (not in DISABLED). */
    boolean records() {
        return true;
    }

    /** The number this state's trip would be if it opened the breaker now. */
    int nextTrip() {
        return 1;
    }

    /**
     * The state callers should see now: a due OPEN moves on to HALF_OPEN here, so a state read by
     * an operator is never stale.
     */
    AbstractState current() {
        return this;
    }

    /** Gives back a permit for a call that was permitted but not made. */
    void release() {
    }

    /** Why the breaker is in this state; empty when there is nothing to say. */
    String reason() {
        return "";
    }

    /** The monotonic time until which calls are rejected, or {@link Long#MIN_VALUE} if none. */
    long openUntilNanos() {
        return Long.MIN_VALUE;
    }

    /** How long a caller this state refuses while it lets calls through elsewhere should stay away; 0 if not known. */
    long refusedForNanos() {
        return 0L;
    }

    /** The rejection handed to callers while this state rejects, or {@code null}. */
    Rejection rejection() {
        return null;
    }

    /** Adds this state's counters to {@code counts}. */
    void addCounts(BreakerCounts.Builder counts, long nowNanos) {
    }
}
