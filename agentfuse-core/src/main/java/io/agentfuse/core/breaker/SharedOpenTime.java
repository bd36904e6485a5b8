package io.agentfuse.core.breaker;

import io.agentfuse.core.breaker.shared.SharedBreakerState;

/**
 * How long another instance's trip keeps a breaker here open: a pure function, so that a shared
 * record, which is input like any other, cannot keep a breaker open longer than its own rules would.
 *
 * <p>The record says when the trip was made and until when it opens the breaker, both on the
 * tripping instance's clock. The open time left here is the least of: the time until its end on
 * this instance's clock; the trip's own length (end minus start, which a peer whose clock is off
 * cannot inflate, since both are on its clock); and the longest open time this breaker's own
 * config gives any trip. Every subtraction saturates, so no value (the year 3000, a negative
 * start) overflows into an open time that has already passed.
 */
final class SharedOpenTime {

    private SharedOpenTime() {
    }

    /**
     * The open time left, in milliseconds, at least 0.
     *
     * @param untilEpochMillis the end of the shared trip's open time, on the tripping instance's clock
     * @param atEpochMillis    when the trip was made, on the same clock
     * @param nowEpochMillis   now, on this instance's clock
     * @param longestMillis    the longest open time this breaker's own config gives a trip
     */
    static long remainingMillis(long untilEpochMillis, long atEpochMillis, long nowEpochMillis, long longestMillis) {
        long left = Math.min(minus(untilEpochMillis, nowEpochMillis), minus(untilEpochMillis, atEpochMillis));
        return Math.max(0L, Math.min(left, longestMillis));
    }

    /** The open time {@code shared}'s trip leaves {@code breaker} here, by its clock and its config: {@link #remainingMillis(long, long, long, long)}. */
    static long remainingMillis(CircuitBreaker breaker, SharedBreakerState shared) {
        long longestNanos = breaker.config().openBackoff().longestOpenNanos(breaker.config().resetTimeout().toNanos());
        return remainingMillis(shared.openUntilEpochMillis(), shared.epochMillis(), breaker.clock().epochMillis(),
                (longestNanos + 999_999L) / 1_000_000L);
    }

    /** {@code a - b}, saturated at the ends of {@code long} instead of wrapping around. */
    static long minus(long a, long b) {
        long difference = a - b;
        if (((a ^ b) & (a ^ difference)) < 0) {
            return a < b ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return difference;
    }
}
