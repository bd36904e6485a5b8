package io.agentfuse.redis;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a command to Redis may take before it fails (and the guard around the store counts it)
 * unless a builder is given its {@code commandTimeout}: the URI's own {@code timeout}, as Lettuce
 * writes it ({@code redis://cache:6379?timeout=500ms}), else 1 s. Lettuce alone would take 60 s
 * without one, far too long for a call a request may wait on; and a timeout the operator wrote in the
 * URI used to be overridden by the 1 s without a word.
 *
 * <p>A written timeout is a whole number with its unit ({@code ms}, {@code s}, {@code m}), from
 * {@link #LEAST} to {@link #MOST}: Lettuce reads a bare number as milliseconds, a value it cannot read
 * ({@code 1.5s}, {@code abc}) as no timeout at all, its 60 s, and one of twenty digits as an exception;
 * all are refused here, as is a {@code timeout} written twice (Lettuce takes the first).
 * The gateway's configuration holds its {@code state.redis.uri} to the same rule. Stateless.
 */
final class CommandTimeout {

    /** When neither the builder nor the URI says. */
    static final Duration DEFAULT = Duration.ofSeconds(1);
    /** The shortest timeout a URI may write: a shorter one fails every command. */
    static final Duration LEAST = Duration.ofMillis(1);
    /** The longest: Lettuce's own default, past which a Redis that hangs holds its callers for nothing. */
    static final Duration MOST = Duration.ofSeconds(60);

    private static final Pattern WRITTEN = Pattern.compile("(\\d{1,9})(ms|s|m)");

    private CommandTimeout() {
    }

    /** The timeout of commands to the Redis at {@code uri}: the URI's, else {@link #DEFAULT}; a bad one is an {@link IllegalArgumentException}. */
    static Duration of(String uri) {
        int query = uri.indexOf('?');
        if (query < 0) {
            return DEFAULT;
        }
        int fragment = uri.indexOf('#', query);
        Duration timeout = null;
        for (String parameter : uri.substring(query + 1, fragment < 0 ? uri.length() : fragment).split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            if (name.toLowerCase(Locale.ROOT).equals("timeout")) {
                if (timeout != null) {
                    throw new IllegalArgumentException("state.redis.uri writes its timeout twice");
                }
                timeout = parse(equals < 0 ? "" : parameter.substring(equals + 1));
            }
        }
        return timeout == null ? DEFAULT : timeout;
    }

    private static Duration parse(String text) {
        Matcher written = WRITTEN.matcher(text);
        Duration timeout = written.matches() ? Duration.of(Long.parseLong(written.group(1)), unit(written.group(2))) : null;
        if (timeout == null || timeout.compareTo(LEAST) < 0 || timeout.compareTo(MOST) > 0) {
            throw new IllegalArgumentException("state.redis.uri's timeout must be a whole number with its unit"
                    + " (ms, s, m), from 1ms to 60s, like 500ms or 2s, but was '" + text + "'");
        }
        return timeout;
    }

    private static ChronoUnit unit(String unit) {
        return switch (unit) {
            case "ms" -> ChronoUnit.MILLIS;
            case "s" -> ChronoUnit.SECONDS;
            default -> ChronoUnit.MINUTES;
        };
    }
}
