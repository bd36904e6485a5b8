package io.agentfuse.core.retry;

/**
 * How a retry spreads its backoff delay so that many clients do not retry in lock-step (the
 * variants of "Exponential Backoff and Jitter", AWS Architecture Blog, 2015).
 *
 * <p>Every variant is a pure function of the exponential delay, the previous delay and a uniform
 * random number, so its bounds can be checked by property tests:
 * <ul>
 *   <li>{@link #NONE}: exactly the exponential delay (the seed: 2 s, 4 s, 8 s);</li>
 *   <li>{@link #FULL}: uniform in [0, delay];</li>
 *   <li>{@link #EQUAL}: uniform in [delay/2, delay];</li>
 *   <li>{@link #DECORRELATED}: uniform in [initial, previous × 3], capped at {@code maxDelay}.</li>
 * </ul>
 */
public enum Jitter {
    /** No spread. */
    NONE,
    /** Uniform in [0, delay]. */
    FULL,
    /** Uniform in [delay / 2, delay]. */
    EQUAL,
    /** Uniform in [initial, previous × 3], capped. */
    DECORRELATED;

    /**
     * The delay to wait, in nanoseconds.
     *
     * @param exponentialNanos the capped exponential delay for this retry
     * @param initialNanos     the policy's initial delay
     * @param previousNanos    the delay used before the previous attempt (the initial delay at first)
     * @param maxNanos         the policy's cap
     * @param randomUnit       a uniform random number in [0, 1)
     */
    public long apply(long exponentialNanos, long initialNanos, long previousNanos, long maxNanos, double randomUnit) {
        return switch (this) {
            case NONE -> exponentialNanos;
            case FULL -> (long) (exponentialNanos * randomUnit);
            case EQUAL -> exponentialNanos / 2 + (long) ((exponentialNanos - exponentialNanos / 2) * randomUnit);
            case DECORRELATED -> {
                long upper = Math.max(initialNanos, (long) Math.min((double) maxNanos, previousNanos * 3.0));
                yield Math.min(maxNanos, initialNanos + (long) ((upper - initialNanos) * randomUnit));
            }
        };
    }
}
