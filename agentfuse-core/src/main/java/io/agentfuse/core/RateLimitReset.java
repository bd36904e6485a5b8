package io.agentfuse.core;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The providers' rate-limit reset headers, read as a wait; see {@link RetryAfter}. OpenAI sends
 * {@code x-ratelimit-reset-<limit>: 6m0s} beside {@code x-ratelimit-remaining-<limit>}; Anthropic
 * {@code anthropic-ratelimit-<limit>-reset: 2026-12-01T10:00:00Z} beside
 * {@code anthropic-ratelimit-<limit>-remaining}. Pure functions.
 */
final class RateLimitReset {

    private static final String OPENAI_LIMITS = "x-ratelimit-";
    private static final String OPENAI_RESET = OPENAI_LIMITS + "reset-";
    private static final String ANTHROPIC = "anthropic-ratelimit-";
    private static final Pattern GO_DURATION = Pattern.compile("(?:(\\d+(?:\\.\\d+)?)h)?(?:(\\d+(?:\\.\\d+)?)m(?!s))?"
            + "(?:(\\d+(?:\\.\\d+)?)s)?(?:(\\d+(?:\\.\\d+)?)ms)?");

    private RateLimitReset() {
    }

    /** Whether {@code name} (any case) is an OpenAI or Anthropic rate-limit header. */
    static boolean isRateLimitHeader(String name) {
        return name.regionMatches(true, 0, OPENAI_LIMITS, 0, OPENAI_LIMITS.length())
                || name.regionMatches(true, 0, ANTHROPIC, 0, ANTHROPIC.length());
    }

    /** The wait in nanoseconds, or {@link RetryAfter#NONE} when no reset header is usable. */
    static long nanos(Map<String, String> headers, long nowEpochMillis) {
        long exhausted = RetryAfter.NONE;
        long latest = RetryAfter.NONE;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            String remainingName;
            long wait;
            if (name.startsWith(OPENAI_RESET)) {
                wait = goDuration(header.getValue());
                remainingName = "x-ratelimit-remaining-" + name.substring(OPENAI_RESET.length());
            } else if (name.startsWith(ANTHROPIC) && name.endsWith("-reset")) {
                wait = instant(header.getValue(), nowEpochMillis);
                remainingName = name.substring(0, name.length() - "-reset".length()) + "-remaining";
            } else {
                continue;
            }
            if (wait == RetryAfter.NONE) {
                continue;
            }
            latest = Math.max(latest, wait);
            if ("0".equals(headers.get(remainingName))) {
                exhausted = Math.max(exhausted, wait);
            }
        }
        return exhausted != RetryAfter.NONE ? exhausted : latest;
    }

    /** {@code 1h2m3.5s}, {@code 6m0s}, {@code 20ms} as nanoseconds, or {@link RetryAfter#NONE}. */
    static long goDuration(String value) {
        String text = value.trim();
        Matcher matcher = GO_DURATION.matcher(text);
        if (text.isEmpty() || !matcher.matches()) {
            return RetryAfter.NONE;
        }
        double seconds = part(matcher.group(1)) * 3600 + part(matcher.group(2)) * 60 + part(matcher.group(3))
                + part(matcher.group(4)) / 1000;
        return (long) Math.min(seconds * 1e9, Long.MAX_VALUE / 2.0);
    }

    private static double part(String number) {
        return number == null ? 0 : Double.parseDouble(number);
    }

    private static long instant(String value, long nowEpochMillis) {
        try {
            Instant at = OffsetDateTime.parse(value.trim()).toInstant();
            return Math.max(0L, at.toEpochMilli() - nowEpochMillis) * 1_000_000L;
        } catch (DateTimeParseException e) {
            return RetryAfter.NONE;
        }
    }
}
