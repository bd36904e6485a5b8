package io.agentfuse.core.breaker;

import io.agentfuse.core.internal.Checks;

import java.time.Duration;

/**
 * How the open time grows when a breaker trips again and again without closing in between
 * (a failed half-open probe counts as a new trip).
 *
 * <p>The n-th trip in a row stays open for {@code resetTimeout × multiplier^(n-1)}, capped at
 * {@code maxOpenTime}, then spread by ± {@code jitter} (a fraction in [0, 1)) so that a fleet of
 * breakers that tripped together does not probe together. The default, {@link #NONE}, keeps the
 * open time equal to {@code resetTimeout} on every trip, as the seed describes.
 *
 * <p>Immutable and thread-safe; {@link #openNanos(long, int, double)} is a pure function.
 *
 * <pre>{@code
 * OpenBackoff backoff = new OpenBackoff(2.0, Duration.ofMinutes(30), 0.1);
 * }</pre>
 *
 * @param multiplier  growth factor per repeated trip, at least 1
 * @param maxOpenTime the cap on the open time, positive and at most 100 years
 * @param jitter      the spread as a fraction of the open time, in [0, 1)
 */
public record OpenBackoff(double multiplier, Duration maxOpenTime, double jitter) {

    /** No growth and no jitter: every trip opens for exactly {@code resetTimeout}. */
    public static final OpenBackoff NONE = new OpenBackoff(1.0, Checks.MAX_DURATION, 0.0);

    /** Validates the arguments; see the class documentation for their ranges. */
    public OpenBackoff {
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("openBackoff.multiplier must be >= 1, but was " + multiplier);
        }
        if (maxOpenTime == null || maxOpenTime.isNegative() || maxOpenTime.isZero()) {
            throw new IllegalArgumentException("openBackoff.maxOpenTime must be positive, but was " + maxOpenTime);
        }
        Checks.atMostMaxDuration("openBackoff.maxOpenTime", maxOpenTime);
        if (!(jitter >= 0.0 && jitter < 1.0)) {
            throw new IllegalArgumentException("openBackoff.jitter must be in [0, 1), but was " + jitter);
        }
    }

    /**
     * The open time, in nanoseconds, of the {@code trip}-th trip in a row.
     *
     * @param resetNanos the configured {@code resetTimeout} in nanoseconds
     * @param trip       1 for the first trip, 2 for a failed probe after it, and so on
     * @param randomUnit a uniform random number in [0, 1), used only when jitter is set
     */
    public long openNanos(long resetNanos, int trip, double randomUnit) {
        double grown = resetNanos * Math.pow(multiplier, Math.max(0, trip - 1));
        double capped = Math.min(grown, (double) maxOpenTime.toNanos());
        double spread = jitter == 0.0 ? capped : capped * (1.0 - jitter + 2.0 * jitter * randomUnit);
        return Math.max(1L, (long) spread);
    }

    /**
     * The longest open time, in nanoseconds, that any trip can get: the cap (or {@code resetNanos}
     * without growth), spread to the top of the jitter. A bound for open times that come from elsewhere.
     */
    public long longestOpenNanos(long resetNanos) {
        return openNanos(resetNanos, Integer.MAX_VALUE, 1.0);
    }
}
