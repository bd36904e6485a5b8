package io.agentfuse.core;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Reads how long a server asked us to wait: {@code retry-after-ms} (milliseconds, OpenAI and
 * Anthropic send it) wins over {@code Retry-After}, which is either delta-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Without either, on a 429 the rate-limit reset headers answer: OpenAI's
 * {@code x-ratelimit-reset-requests} / {@code -tokens} (durations such as {@code 6m0s}) and
 * Anthropic's {@code anthropic-ratelimit-*-reset} (RFC 3339 instants); the reset of a limit whose
 * {@code remaining} header says 0 is the one that counts, else the latest. Providers send those
 * headers on every answer, a 500 included, where they describe the quota, not a wait. Pure
 * functions; thread-safe.
 *
 * <pre>{@code
 * long waitNanos = RetryAfter.nanos(null, "120", clock.epochMillis());   // 120 s
 * }</pre>
 */
public final class RetryAfter {

    /** Returned when no usable hint is present. */
    public static final long NONE = -1L;

    private static final int RATE_LIMITED = 429;
    /** The longest wait read, in nanoseconds (about 146 years): any longer one, a date included, is read as this. */
    private static final long LONGEST = Long.MAX_VALUE / 2;
    /**
     * A number of seconds or milliseconds as servers write it: digits, perhaps a fraction. Not what
     * {@link Double#parseDouble} would take besides ({@code 0x1p3}, {@code 8f}, {@code NaN}, a sign).
     */
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,30}(\\.[0-9]{0,30})?");

    private RetryAfter() {
    }

    /**
     * The wait in nanoseconds, or {@link #NONE}. A date in the past gives 0; malformed or
     * negative values give {@link #NONE}; a wait longer than about 146 years (a date in the year
     * 9999) is read as that.
     *
     * @param retryAfterMs   the {@code retry-after-ms} header or {@code null}
     * @param retryAfter     the {@code Retry-After} header or {@code null}
     * @param nowEpochMillis the current wall-clock time, to resolve an HTTP date
     */
    public static long nanos(String retryAfterMs, String retryAfter, long nowEpochMillis) {
        long fromMillis = parseMillis(retryAfterMs);
        if (fromMillis != NONE) {
            return fromMillis;
        }
        if (retryAfter == null || retryAfter.isBlank()) {
            return NONE;
        }
        String value = retryAfter.trim();
        return DECIMAL.matcher(value).matches() ? nanosOf(Double.parseDouble(value), 1e9) : parseDate(value, nowEpochMillis);
    }

    /** The wait asked for by the server behind {@code error}, if it is an {@link HttpStatusException}. */
    public static long ofError(Throwable error, long nowEpochMillis) {
        if (OutcomeClassifier.unwrap(error) instanceof HttpStatusException http) {
            long hint = nanos(http.retryAfterMs().orElse(null), http.retryAfter().orElse(null), nowEpochMillis);
            return hint != NONE || http.status() != RATE_LIMITED ? hint : RateLimitReset.nanos(http.headers(), nowEpochMillis);
        }
        return NONE;
    }

    /**
     * Whether an answer header named {@code name} (any case) is one this class reads:
     * {@code Retry-After}, {@code retry-after-ms}, or a rate-limit header of OpenAI
     * ({@code x-ratelimit-*}) or Anthropic ({@code anthropic-ratelimit-*}).
     */
    public static boolean readsHeader(String name) {
        return name.equalsIgnoreCase(HttpStatusException.RETRY_AFTER)
                || name.equalsIgnoreCase(HttpStatusException.RETRY_AFTER_MS)
                || RateLimitReset.isRateLimitHeader(name);
    }

    private static long parseMillis(String value) {
        if (value == null) {
            return NONE;
        }
        String millis = value.trim();
        return DECIMAL.matcher(millis).matches() ? nanosOf(Double.parseDouble(millis), 1e6) : NONE;
    }

    /** {@code count} units of {@code unitNanos} each, in nanoseconds, at most {@link #LONGEST}. */
    private static long nanosOf(double count, double unitNanos) {
        double nanos = count * unitNanos;
        return nanos >= LONGEST ? LONGEST : (long) nanos;
    }

    private static long parseDate(String value, long nowEpochMillis) {
        try {
            long at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            return nanosOf(Math.max(0L, at - nowEpochMillis), 1e6);
        } catch (DateTimeParseException | ArithmeticException e) {
            return NONE;
        }
    }
}
