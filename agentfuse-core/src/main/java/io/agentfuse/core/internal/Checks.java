package io.agentfuse.core.internal;

import java.time.Duration;

/**
 * The argument checks every agentfuse config shares (core's and agent's; the YAML reader words its
 * problems with {@link #mustBe}), so that a rejected value is reported the same way everywhere: the
 * key, the rule and the bad value, as in {@code "halfOpenRequests must be >= 1, but was 0"}. Each check returns the value it accepted.
 *
 * <p>Not part of the public API: it may change without notice.
 */
public final class Checks {

    /**
     * The longest duration any setting may have. Far beyond real use, and safely inside the
     * ~292 years that a {@code long} of nanoseconds holds, so {@code toNanos()} cannot overflow.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(36_500);

    private Checks() {
    }

    /** The one wording of a rejected value: {@code "must be >= 1, but was 0"}. */
    public static String mustBe(String rule, Object actual) {
        return "must be " + rule + ", but was " + actual;
    }

    /** Returns {@code value} if it is at least {@code min}. */
    public static long atLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " " + mustBe(">= " + min, value));
        }
        return value;
    }

    /** Returns {@code value} if it is at least {@code min}. */
    public static int atLeast(String key, int value, int min) {
        atLeast(key, (long) value, min);
        return value;
    }

    /** Returns {@code value} if it is set and longer than zero (and at most {@link #MAX_DURATION}). */
    public static Duration positive(String key, Duration value) {
        notNull(key, value);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " " + mustBe("positive", value));
        }
        return atMostMaxDuration(key, value);
    }

    /** Returns {@code value} if it is absent or {@link #positive}. */
    public static Duration positiveOrAbsent(String key, Duration value) {
        return value == null ? null : positive(key, value);
    }

    /** Returns {@code value} if it is set and not negative (and at most {@link #MAX_DURATION}). */
    public static Duration notNegative(String key, Duration value) {
        notNull(key, value);
        if (value.isNegative()) {
            throw new IllegalArgumentException(key + " must not be negative, but was " + value);
        }
        return atMostMaxDuration(key, value);
    }

    /** Returns {@code value} if it is at most {@link #MAX_DURATION}. */
    public static Duration atMostMaxDuration(String key, Duration value) {
        if (value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(key + " " + mustBe("at most 100 years", value));
        }
        return value;
    }

    /** Returns {@code value} if it is a rate threshold in [0, 1): a rate must exceed it to fire, so 100 % never could. */
    public static double rateThreshold(String key, double value) {
        if (!(value >= 0.0 && value < 1.0)) {
            throw new IllegalArgumentException(key + " " + mustBe("in [0, 1)", value));
        }
        return value;
    }

    /** Returns {@code value} if it is a share of a whole: above 0 and at most 1 (NaN is not). */
    public static double share(String key, double value) {
        if (!(value > 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(key + " " + mustBe("in (0, 1]", value));
        }
        return value;
    }

    /** Returns {@code value} if it is set. */
    public static <T> T notNull(String key, T value) {
        if (value == null) {
            throw new IllegalArgumentException(key + " " + mustBe("set", null));
        }
        return value;
    }
}
