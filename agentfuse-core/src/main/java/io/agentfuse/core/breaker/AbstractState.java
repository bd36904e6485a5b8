package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

import java.util.Map;

/**
 * One state of a {@link CircuitBreaker}: decides on permission and on recorded outcomes while it
 * is current. A state object is never reused: every transition installs a fresh one with a CAS,
 * so counters start clean and a late report on an old state does no harm.
 */
abstract class AbstractState {

    final CircuitBreaker breaker;

    AbstractState(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    abstract CircuitState kind();

    /** Whether a call may proceed now; must be cheap. */
    abstract boolean tryAcquire();

    /** Records the outcome of a call that was permitted (possibly under an earlier state). */
    abstract void record(Outcome outcome, long durationNanos, long retryAfterNanos);

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

    /** The rejection handed to callers while this state rejects, or {@code null}. */
    Rejection rejection() {
        return null;
    }

    /** Adds this state's counters to {@code counts}. */
    void addCounts(Map<String, Long> counts, long nowNanos) {
    }
}
