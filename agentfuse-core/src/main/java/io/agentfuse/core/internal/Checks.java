package io.agentfuse.core.internal;

import java.time.Duration;

/** Argument checks whose messages name the key and the bad value, as every config here does. */
public final class Checks {

    /**
     * The longest duration any setting may have. Far beyond real use, and safely inside the
     * ~292 years that a {@code long} of nanoseconds holds, so {@code toNanos()} cannot overflow.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(36_500);

    private Checks() {
    }

    public static void atLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be >= " + min + ", but was " + value);
        }
    }

    public static void positive(String key, Duration value) {
        notNull(key, value);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, but was " + value);
        }
        atMostMaxDuration(key, value);
    }

    public static void notNegative(String key, Duration value) {
        notNull(key, value);
        if (value.isNegative()) {
            throw new IllegalArgumentException(key + " must not be negative, but was " + value);
        }
        atMostMaxDuration(key, value);
    }

    public static void atMostMaxDuration(String key, Duration value) {
        if (value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(key + " must be at most 100 years, but was " + value);
        }
    }

    public static void rateThreshold(String key, double value) {
        // A rate must exceed its threshold to fire, so 100 % could never fire.
        if (!(value >= 0.0 && value < 1.0)) {
            throw new IllegalArgumentException(key + " must be in [0, 1), but was " + value);
        }
    }

    public static void notNull(String key, Object value) {
        if (value == null) {
            throw new IllegalArgumentException(key + " must be set, but was null");
        }
    }
}
