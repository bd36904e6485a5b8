package io.agentfuse.redis;

import io.lettuce.core.RedisURI;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How long a command to Redis may take before it fails (and the guard around the store counts it)
 * unless a builder is given its {@code commandTimeout}: the URI's own {@code timeout}, as Lettuce
 * writes it ({@code redis://cache:6379?timeout=500ms}), else 1 s. Lettuce alone would take 60 s
 * without one, far too long for a call a request may wait on; and a timeout the operator wrote in the
 * URI used to be overridden by the 1 s without a word.
 *
 * <p>A written timeout is a whole number with its unit ({@code ns}, {@code us}, {@code ms}, {@code s},
 * {@code m}, {@code h}, {@code d}), above zero: Lettuce reads a bare number as milliseconds, and a value
 * it cannot read ({@code 1.5s}, {@code abc}) as no timeout at all, its 60 s; both are refused here.
 * Stateless.
 */
final class CommandTimeout {

    /** When neither the builder nor the URI says. */
    static final Duration DEFAULT = Duration.ofSeconds(1);

    private static final Pattern WRITTEN = Pattern.compile("\\d+(?:ns|us|ms|s|m|h|d)");

    private CommandTimeout() {
    }

    /** The timeout of commands to the Redis at {@code uri}: the URI's, else {@link #DEFAULT}; a bad one is an {@link IllegalArgumentException}. */
    static Duration of(String uri) {
        return written(uri).map(text -> {
            Duration timeout = RedisURI.create(uri).getTimeout();
            if (!WRITTEN.matcher(text).matches() || timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("state.redis.uri's timeout must be a whole number above 0 with its unit"
                        + " (ms, s, m, h, d), like 500ms or 2s, but was '" + text + "'");
            }
            return timeout;
        }).orElse(DEFAULT);
    }

    /** The value of the {@code timeout} parameter of {@code uri}'s query, as written; empty without one. */
    private static Optional<String> written(String uri) {
        int query = uri.indexOf('?');
        if (query < 0) {
            return Optional.empty();
        }
        for (String parameter : uri.substring(query + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            if (name.toLowerCase(Locale.ROOT).equals("timeout")) {
                return Optional.of(equals < 0 ? "" : parameter.substring(equals + 1));
            }
        }
        return Optional.empty();
    }
}
