package io.agentfuse.config.internal;

import io.agentfuse.config.BreakerConfig;
import io.agentfuse.config.BreakerConfig.ConsecutiveTimeouts;
import io.agentfuse.config.BreakerConfig.FailureRate;
import io.agentfuse.config.BreakerConfig.SlowCallRate;
import io.agentfuse.config.BreakerConfig.TokenOveruse;
import io.agentfuse.config.BreakerConfig.Window;
import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.DurationFormat;
import io.agentfuse.config.internal.Node.MapNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Reads breaker settings: the entries of {@code breakers}, a model's inline {@code breaker},
 * and the {@code circuitBreaker} of tools and MCP servers. A trigger is taken from the first
 * map that has it; a trigger map's missing keys come from the trigger's template in
 * {@link ConfigDefaults}.
 */
final class BreakerBinder {

    private static final String FAILURE_THRESHOLD = "failureThreshold";
    private static final String CONSECUTIVE_ERRORS = "consecutiveErrors";
    private static final String WINDOW = "a number of calls like 20 or a duration like 60s";
    /** More over-budget calls in a row than anyone means: such a number is a token limit written short. */
    private static final int MAX_TOKEN_OVERUSE_COUNT = 1_000;
    private static final String COUNT_TRIGGER = "a count like 3, a map like {count: 3}, or off";

    private BreakerBinder() {
    }

    /** The breaker {@code section} describes, with {@code defaults} for what it leaves out. */
    static BreakerConfig read(MapReader section, BreakerConfig defaults) {
        var config = new BreakerConfig(
                consecutiveTimeouts(section, defaults.consecutiveTimeouts()),
                consecutiveErrors(section, defaults.consecutiveErrors()),
                count(section, "consecutive5xx", defaults.consecutive5xx(), ConfigDefaults.CONSECUTIVE_5XX),
                count(section, "consecutive429", defaults.consecutive429(), ConfigDefaults.CONSECUTIVE_429),
                tokenOveruse(section, defaults.tokenOveruse()),
                failureRate(section, defaults.failureRate()),
                slowCallRate(section, defaults.slowCallRate()),
                section.duration("resetTimeout", defaults.resetTimeout()),
                section.integer("halfOpenRequests", defaults.halfOpenRequests(), 1, Integer.MAX_VALUE));
        if (!config.hasTrigger()) {
            section.problems().add(section.path(), section.location(),
                    "every trigger is off, so this breaker would never open; turn at least one on");
        }
        section.finish();
        return config;
    }

    /** {@code failureThreshold} (the seed's name) and {@code consecutiveErrors} are one trigger. */
    private static OptionalInt consecutiveErrors(MapReader section, OptionalInt fallback) {
        boolean threshold = section.find(FAILURE_THRESHOLD).isPresent();
        if (threshold && section.find(CONSECUTIVE_ERRORS).isPresent()) {
            section.error(CONSECUTIVE_ERRORS, "is the same trigger as failureThreshold; give only one of them");
        }
        return count(section, threshold ? FAILURE_THRESHOLD : CONSECUTIVE_ERRORS, fallback,
                ConfigDefaults.CONSECUTIVE_ERRORS);
    }

    private static OptionalInt count(MapReader section, String key, OptionalInt fallback, int template) {
        Optional<Node> node = section.find(key);
        if (node.isEmpty()) {
            return fallback;
        }
        if (MapReader.isOff(node.get())) {
            return OptionalInt.empty();
        }
        if (node.get() instanceof MapNode) {
            MapReader trigger = section.section(key);
            int count = trigger.integer("count", fallback.orElse(template), 1, Integer.MAX_VALUE);
            trigger.finish();
            return OptionalInt.of(count);
        }
        return OptionalInt.of(section.integer(key, fallback.orElse(template), 1, Integer.MAX_VALUE, COUNT_TRIGGER));
    }

    private static Optional<ConsecutiveTimeouts> consecutiveTimeouts(MapReader section,
                                                                     Optional<ConsecutiveTimeouts> fallback) {
        ConsecutiveTimeouts template = fallback.orElse(ConfigDefaults.CONSECUTIVE_TIMEOUTS);
        return trigger(section, "consecutiveTimeouts", fallback,
                count -> new ConsecutiveTimeouts(count, template.slowerThan()),
                map -> new ConsecutiveTimeouts(map.integer("count", template.count(), 1, Integer.MAX_VALUE),
                        map.duration("slowerThan", template.slowerThan())));
    }

    private static Optional<TokenOveruse> tokenOveruse(MapReader section, Optional<TokenOveruse> fallback) {
        TokenOveruse template = fallback.orElse(ConfigDefaults.TOKEN_OVERUSE);
        if (looksLikeATokenLimit(section.find("tokenOveruse"))) {
            // "A bare number is its count" would turn tokenOveruse: 50000 into 50 000 calls in a row.
            section.error("tokenOveruse", "a bare number is the count of over-budget calls in a row, not a token limit;"
                    + " write {maxTokensPerCall: " + ((ScalarNode) section.find("tokenOveruse").orElseThrow()).text()
                    + "} for a limit of that many tokens per call");
            return fallback;
        }
        return trigger(section, "tokenOveruse", fallback,
                count -> new TokenOveruse(template.maxTokensPerCall(), count),
                map -> new TokenOveruse(
                        map.longInteger("maxTokensPerCall", template.maxTokensPerCall(), 1, Long.MAX_VALUE),
                        map.integer("count", template.count(), 1, Integer.MAX_VALUE)));
    }

    private static boolean looksLikeATokenLimit(Optional<Node> node) {
        return node.filter(ScalarNode.class::isInstance)
                .flatMap(scalar -> ScalarFormats.integer(((ScalarNode) scalar).text()))
                .filter(count -> count > MAX_TOKEN_OVERUSE_COUNT)
                .isPresent();
    }

    private static Optional<FailureRate> failureRate(MapReader section, Optional<FailureRate> fallback) {
        FailureRate template = fallback.orElse(ConfigDefaults.FAILURE_RATE);
        return trigger(section, "failureRate", fallback, null,
                map -> {
                    Window window = window(map, template.window());
                    int minCalls = minCalls(map, template.minCalls(), window);
                    return new FailureRate(window, minCalls, map.rateThreshold("threshold", template.threshold()));
                });
    }

    private static Optional<SlowCallRate> slowCallRate(MapReader section, Optional<SlowCallRate> fallback) {
        SlowCallRate template = fallback.orElse(ConfigDefaults.SLOW_CALL_RATE);
        return trigger(section, "slowCallRate", fallback, null,
                map -> {
                    Window window = window(map, template.window());
                    int minCalls = minCalls(map, template.minCalls(), window);
                    return new SlowCallRate(window, minCalls, map.rateThreshold("threshold", template.threshold()),
                            map.duration("slowerThan", template.slowerThan()));
                });
    }

    /**
     * A trigger written as {@code off}, as a map, or (when {@code fromCount} is given) as a bare
     * number that is its count.
     */
    private static <T> Optional<T> trigger(MapReader section, String key, Optional<T> fallback,
                                           IntFunction<T> fromCount, Function<MapReader, T> fromMap) {
        Optional<Node> node = section.find(key);
        if (node.isEmpty()) {
            return fallback;
        }
        if (MapReader.isOff(node.get())) {
            return Optional.empty();
        }
        if (node.get() instanceof MapNode) {
            MapReader map = section.section(key);
            T trigger = fromMap.apply(map);
            map.finish();
            return Optional.of(trigger);
        }
        if (fromCount == null) {
            section.error(key, "must be a map like {window: 20, minCalls: 10, threshold: 50%}, or off, but was "
                    + node.get().describe());
            return fallback;
        }
        return Optional.of(fromCount.apply(section.integer(key, 1, 1, Integer.MAX_VALUE, COUNT_TRIGGER)));
    }

    private static Window window(MapReader map, Window fallback) {
        Optional<Node> node = map.find("window");
        if (node.isEmpty()) {
            return fallback;
        }
        String text = node.get() instanceof ScalarNode scalar && !scalar.isNull() ? scalar.text() : "";
        if (ScalarFormats.integer(text).isPresent()) {
            return new Window.Calls(map.integer("window", 1, 1, Integer.MAX_VALUE));
        }
        Optional<Duration> length = DurationFormat.parse(text, ChronoUnit.SECONDS).filter(d -> !d.isZero());
        if (length.isEmpty()) {
            map.error("window", "must be " + WINDOW + ", but was " + node.get().describe());
            return fallback;
        }
        return new Window.Time(length.get());
    }

    private static int minCalls(MapReader map, int fallback, Window window) {
        int minCalls = map.integer("minCalls", fallback, 1, Integer.MAX_VALUE);
        if (window instanceof Window.Calls calls && minCalls > calls.size()) {
            map.error(map.find("minCalls").isPresent() ? "minCalls" : "window",
                    "minCalls (" + minCalls + ") must not exceed the window of " + calls.size()
                            + " calls, or the trigger could never fire");
        }
        return minCalls;
    }
}
