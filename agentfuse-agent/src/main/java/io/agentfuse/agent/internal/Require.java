package io.agentfuse.agent.internal;

import java.time.Duration;

/**
 * The validation rules that agent configs share, so that every rejected value is reported the
 * same way: the key, the rule and the bad value, as in
 * {@code "maxConsecutiveDenials must be >= 1, but was 0"}.
 *
 * <p>Not part of the public API: it may change without notice.
 */
public final class Require {

    private Require() {
    }

    /** Returns {@code value} if it is at least {@code min}. */
    public static int atLeast(String key, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be >= " + min + ", but was " + value);
        }
        return value;
    }

    /** Returns {@code value} if it is not null. */
    public static <T> T present(String key, T value) {
        if (value == null) {
            throw new IllegalArgumentException(key + " must not be null");
        }
        return value;
    }

    /** Returns {@code value} if it is present and longer than zero. */
    public static Duration positive(String key, Duration value) {
        present(key, value);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be > 0, but was " + value);
        }
        return value;
    }

    /** Returns {@code value} if it is absent or longer than zero. */
    public static Duration positiveOrAbsent(String key, Duration value) {
        return value == null ? null : positive(key, value);
    }

    /** Returns {@code value} if it is a share of a whole: finite, above 0 and at most 1. */
    public static double share(String key, double value) {
        if (!(value > 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(key + " must be in (0, 1], but was " + value);
        }
        return value;
    }
}
