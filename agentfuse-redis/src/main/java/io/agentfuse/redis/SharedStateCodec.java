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
 * published, so {@link #encodeUnversioned} leaves it out. Stateless and thread-safe.
 */
public final class SharedStateCodec {

    private static final String COUNT = "c.";

    private SharedStateCodec() {
    }

    /** {@code state} without its version, for the publish script to prefix with {@code v=<version>&}. */
    public static String encodeUnversioned(SharedBreakerState state) {
        StringBuilder out = new StringBuilder(128);
        field(out, "breaker", state.breaker());
        field(out, "state", state.state().name());
        field(out, "reason", state.reason());
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
     * The state {@code text} stands for.
     *
     * @throws IllegalArgumentException if it is not a shared state (a field missing or malformed)
     */
    public static SharedBreakerState decode(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String pair : text.split("&")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("not a shared breaker state, field without a name: '" + pair + "'");
            }
            String name = URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            if (name.startsWith(COUNT)) {
                counts.put(name.substring(COUNT.length()), number(name, value));
            } else {
                fields.put(name, value);
            }
        }
        try {
            return new SharedBreakerState(required(fields, "breaker"), number("v", required(fields, "v")),
                    CircuitState.valueOf(required(fields, "state")), required(fields, "reason"), counts,
                    number("until", required(fields, "until")), required(fields, "origin"),
                    number("at", required(fields, "at")));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("not a shared breaker state: " + e.getMessage(), e);
        }
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
            throw new IllegalArgumentException("field '" + name + "' is missing");
        }
        return value;
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("field '" + name + "' must be a whole number, but was '" + value + "'", e);
        }
    }
}
