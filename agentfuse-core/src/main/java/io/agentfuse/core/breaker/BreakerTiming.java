package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;

/**
 * How a breaker reads time, decided once from its config: which clock call durations and open
 * times are read from, the slow-call threshold, and the cap on a server's requested wait.
 *
 * <p>Durations and open times far above the coarse clock's tick are read from it: one volatile
 * read instead of {@code System.nanoTime()}, which is most of what a guarded call costs. Immutable.
 *
 * @param durationClock       the clock call durations are measured with
 * @param openClock           the clock open periods are timed with
 * @param slowCallNanos       the lowest slow-call threshold of any trigger, or {@code Long.MAX_VALUE}
 * @param maxRetryAfterNanos  the longest {@code Retry-After} that keeps the breaker open
 */
record BreakerTiming(Clock durationClock, Clock openClock, long slowCallNanos, long maxRetryAfterNanos) {

    BreakerTiming(CircuitBreakerConfig config, Clock clock) {
        this(clock.fineEnoughFor(Math.min(config.slowCallNanos(), config.minWindowNanos())),
                clock.fineEnoughFor(config.resetTimeout().toNanos()), config.slowCallNanos(), config.maxRetryAfter().toNanos());
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
