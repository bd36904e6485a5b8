package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wire form of a {@link SharedBreakerState}, as it is stored under a breaker's key and
 * published on the fleet's channel: form-encoded fields, readable with {@code redis-cli}, e.g.
 * {@code v=1733050000000001&breaker=model%3Agpt-4o-mini&state=OPEN&reason=...&until=...&origin=...&at=...&c.consecutive5xx=3}.
 *
 * <p>The version ({@code v}) comes first and is written by Redis itself when the change is
 * published, so {@link #encodeUnversioned} leaves it out.
 *
 * <p>What Redis holds is input like any other, so {@link #decode} takes only what this codec could
 * have written: at most {@link #MAX_RECORD_CHARS} characters, a version that is Redis's clock in
 * microseconds (no more than {@link #MAX_VERSION_AHEAD_MICROS} ahead of this instance's clock: a
 * version far in the future would make every later change look old), a breaker name of at most
 * {@link #MAX_NAME_CHARS}, at most {@link #MAX_COUNTS} counts, none negative. A reason is cut to
 * {@link #MAX_REASON_CHARS} on both sides. The Lua scripts apply the same bounds ({@link RedisScripts}).
 * Stateless and thread-safe.
 */
public final class SharedStateCodec {

    /** The longest record (or message) taken from Redis, in characters. */
    public static final int MAX_RECORD_CHARS = 16 * 1024;
    /** The longest breaker name in a record. */
    public static final int MAX_NAME_CHARS = 512;
    /** The longest reason kept. */
    public static final int MAX_REASON_CHARS = 500;
    /** The most counts in a record. */
    public static final int MAX_COUNTS = 32;
    /** How far a version may be ahead of the clock, in microseconds: a day, far more than clocks in one fleet disagree. */
    public static final long MAX_VERSION_AHEAD_MICROS = 86_400_000_000L;

    private static final String COUNT = "c.";

    private SharedStateCodec() {
    }

    /** {@code state} without its version, for the publish script to prefix with {@code v=<version>&}. */
    public static String encodeUnversioned(SharedBreakerState state) {
        StringBuilder out = new StringBuilder(128);
        field(out, "breaker", state.breaker());
        field(out, "state", state.state().name());
        field(out, "reason", bounded(state.reason()));
        field(out, "until", Long.toString(state.openUntilEpochMillis()));
        field(out, "origin", state.origin());
        field(out, "at", Long.toString(state.epochMillis()));
        state.counts().forEach((name, count) -> field(out, COUNT + name, Long.toString(count)));
        return out.toString();
    }

    /** {@code state} with its version, as Redis stores and publishes it. */
    public static String encode(SharedBreakerState state) {
        return "v=" + state.version() + "&" + encodeUnversioned(state);
    }

    /**
     * The state {@code text} stands for, as read now.
     *
     * @throws IllegalArgumentException if it is not a shared state this codec could have written (a
     *                                  field missing, malformed or out of bounds); its message quotes none of it
     */
    public static SharedBreakerState decode(String text) {
        return decode(text, System.currentTimeMillis());
    }

    /** {@link #decode(String)} on a clock that reads {@code nowEpochMillis}. */
    public static SharedBreakerState decode(String text, long nowEpochMillis) {
        if (text.length() > MAX_RECORD_CHARS) {
            throw new IllegalArgumentException("not a shared breaker state: " + text.length() + " characters, over the limit of "
                    + MAX_RECORD_CHARS);
        }
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String pair : text.split("&")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("not a shared breaker state: a field without a name");
            }
            String name = decodePart(pair.substring(0, equals));
            String value = decodePart(pair.substring(equals + 1));
            if (name.startsWith(COUNT)) {
                counts.put(name.substring(COUNT.length()), count(name, value));
            } else {
                fields.put(name, value);
            }
        }
        if (counts.size() > MAX_COUNTS) {
            throw new IllegalArgumentException("not a shared breaker state: " + counts.size() + " counts, over the limit of " + MAX_COUNTS);
        }
        long version = number("v", required(fields, "v"));
        if (version > nowEpochMillis * 1000L + MAX_VERSION_AHEAD_MICROS) {
            throw new IllegalArgumentException("not a shared breaker state: its version " + version
                    + " is more than a day ahead of this instance's clock");
        }
        String breaker = required(fields, "breaker");
        if (breaker.length() > MAX_NAME_CHARS) {
            throw new IllegalArgumentException("not a shared breaker state: a breaker name of " + breaker.length()
                    + " characters, over the limit of " + MAX_NAME_CHARS);
        }
        try {
            return new SharedBreakerState(breaker, version, state(required(fields, "state")),
                    bounded(required(fields, "reason")), counts, number("until", required(fields, "until")),
                    bounded(required(fields, "origin")), number("at", required(fields, "at")));
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("not a shared") ? e
                    : new IllegalArgumentException("not a shared breaker state: " + e.getMessage(), e);
        }
    }

    private static CircuitState state(String name) {
        for (CircuitState state : CircuitState.values()) {
            if (state.name().equals(name)) {
                return state;
            }
        }
        throw new IllegalArgumentException("not a shared breaker state: field 'state' names no state");
    }

    private static String decodePart(String part) {
        try {
            return URLDecoder.decode(part, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            throw new IllegalArgumentException("not a shared breaker state: a malformed %-escape", malformed);
        }
    }

    private static String bounded(String text) {
        return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "…";
    }

    private static long count(String name, String value) {
        long count = number(name, value);
        if (count < 0) {
            throw new IllegalArgumentException("not a shared breaker state: count '" + name + "' is negative");
        }
        return count;
    }

    private static void field(StringBuilder out, String name, String value) {
        if (!out.isEmpty()) {
            out.append('&');
        }
        out.append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    private static String required(Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value == null) {
            throw new IllegalArgumentException("not a shared breaker state: field '" + name + "' is missing");
        }
        return value;
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a shared breaker state: field '" + name + "' must be a whole number", e);
        }
    }
}
