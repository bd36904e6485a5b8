package io.agentfuse.core.breaker;

/**
 * How a breaker judges time, decided once from its config: the slow-call threshold and the cap on
 * a server's requested wait. Immutable.
 *
 * @param slowCallNanos       the lowest slow-call threshold of any trigger, or {@code Long.MAX_VALUE}
 * @param maxRetryAfterNanos  the longest {@code Retry-After} that keeps the breaker open
 */
record BreakerTiming(long slowCallNanos, long maxRetryAfterNanos) {

    BreakerTiming(CircuitBreakerConfig config) {
        this(config.slowCallNanos(), config.maxRetryAfter().toNanos());
    }

    /** Whether a trigger judges call durations. */
    boolean triggersUseDuration() {
        return slowCallNanos != Long.MAX_VALUE;
    }

    /** {@code retryAfterNanos}, at least 0 and at most {@link #maxRetryAfterNanos}. */
    long cappedRetryAfter(long retryAfterNanos) {
        return Math.min(Math.max(0L, retryAfterNanos), maxRetryAfterNanos);
    }
}
