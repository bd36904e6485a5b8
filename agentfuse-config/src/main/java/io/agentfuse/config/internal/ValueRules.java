package io.agentfuse.config.internal;

import io.agentfuse.core.internal.Checks;

import java.time.Duration;

/**
 * The range rules of the configuration's scalar values, as pure functions: each returns the
 * problem in core's one wording ({@link Checks#mustBe}: {@code "must be >= 1, but was 0"}), or
 * {@code null} when the value is fine. {@code written} is the value as the file wrote it.
 */
final class ValueRules {

    private ValueRules() {
    }

    /** An integer in [min, max]. */
    static String inRange(long min, long max, long value) {
        if (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) {
            return value < min ? Checks.mustBe(">= " + min, value) : null;
        }
        return value < min || value > max ? Checks.mustBe("between " + min + " and " + max, value) : null;
    }

    /** A number of at least {@code min}. */
    static String atLeast(double min, double value) {
        return value < min ? Checks.mustBe(">= " + plain(min), plain(value)) : null;
    }

    /** A duration the core can hold in nanoseconds: the file refuses more than 100 years, as the core does. */
    static String notTooLong(Duration value, String written) {
        return value.compareTo(Checks.MAX_DURATION) > 0 ? Checks.mustBe("at most 100 years (876000h)", written) : null;
    }

    /**
     * A secret sent in an HTTP header (an API key, a client key, the admin token): printable ASCII on
     * one line, without leading or trailing spaces, or empty. The problem never quotes the value; it
     * names what usually put the line break there.
     */
    static String headerSecret(String value) {
        boolean sendable = value.chars().allMatch(c -> c >= 0x20 && c < 0x7f) && value.strip().equals(value);
        return sendable ? null : "must be one line of printable ASCII without leading or trailing spaces, as an HTTP"
                + " header carries it, but was not (a line break at the end of the file or variable it came from?);"
                + " the value is not shown";
    }

    /** A strictly positive duration, at most 100 years. */
    static String positiveDuration(Duration value, String written) {
        return value.isZero() ? Checks.mustBe("> 0", written) : notTooLong(value, written);
    }

    /** A share in (0, 1]. */
    static String share(double value, String written) {
        return value <= 0 || value > 1 ? Checks.mustBe(
                "more than 0% and at most 100% (a bare number is a fraction: 0.5 is 50%)", written) : null;
    }

    /**
     * The threshold of a rate trigger, in [0, 1): the rate must exceed it to fire, so 100% could
     * never fire, while 0% fires on the first failure once the window has its minimum of calls.
     */
    static String rateThreshold(double value, String written) {
        return value < 0 || value >= 1 ? Checks.mustBe(
                "at least 0% and less than 100% (a rate must exceed it to open the breaker)", written) : null;
    }

    /** A size in bytes above zero. */
    static String positiveSize(long value, String written) {
        return value <= 0 ? Checks.mustBe("> 0", written) : null;
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
