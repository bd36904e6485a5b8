package io.agentfuse.core;

import java.time.Duration;

/** Argument checks whose messages name the key and the bad value, as every config here does. */
final class Checks {

    /**
     * The longest duration any setting may have. Far beyond real use, and safely inside the
     * ~292 years that a {@code long} of nanoseconds holds, so {@code toNanos()} cannot overflow.
     */
    static final Duration MAX_DURATION = Duration.ofDays(36_500);

    private Checks() {
    }

    static void atLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be >= " + min + ", but was " + value);
        }
    }

    static void positive(String key, Duration value) {
        notNull(key, value);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, but was " + value);
        }
        atMostMaxDuration(key, value);
    }

    static void notNegative(String key, Duration value) {
        notNull(key, value);
        if (value.isNegative()) {
            throw new IllegalArgumentException(key + " must not be negative, but was " + value);
        }
        atMostMaxDuration(key, value);
    }

    static void atMostMaxDuration(String key, Duration value) {
        if (value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(key + " must be at most 100 years, but was " + value);
        }
    }

    static void rateThreshold(String key, double value) {
        // A rate must exceed its threshold to fire, so 100 % could never fire.
        if (!(value >= 0.0 && value < 1.0)) {
            throw new IllegalArgumentException(key + " must be in [0, 1), but was " + value);
        }
    }

    static void notNull(String key, Object value) {
        if (value == null) {
            throw new IllegalArgumentException(key + " must be set, but was null");
        }
    }
}
