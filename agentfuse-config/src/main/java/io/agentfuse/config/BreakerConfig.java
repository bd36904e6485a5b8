package io.agentfuse.config;

import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The settings of one circuit breaker: its triggers, how long it stays open, and how many
 * probes it lets through when half open.
 *
 * <p>Used for the entries of {@code breakers:} (and a model's inline {@code breaker:} map),
 * and for the {@code circuitBreaker:} of tools and MCP servers. A trigger that is
 * {@linkplain Optional#empty() empty} is off; the first trigger that fires opens the breaker.
 * A trigger written as a bare number is its count ({@code consecutive5xx: 3} is
 * {@code {count: 3}}); {@code off} or {@code null} turns a default trigger off;
 * {@code failureThreshold} is the seed's name for {@code consecutiveErrors}.
 *
 * <p>Defaults: {@link ConfigDefaults#MODEL_BREAKER} for models (every trigger of docs/design.md §3 on, open
 * for 5 minutes, one probe); {@link ConfigDefaults#TOOL_BREAKER} (5 failures in a row) for
 * tools and {@link ConfigDefaults#MCP_TOOL_BREAKER} (3 in a row) for MCP servers. Immutable
 * and thread-safe; equal settings compare equal, which is how a reload keeps a breaker's state.
 *
 * <pre>{@code
 * breakers:
 *   default:
 *     consecutiveTimeouts: { count: 3, slowerThan: 60s }
 *     consecutiveErrors: 5
 *     consecutive5xx: 3
 *     consecutive429: 2
 *     tokenOveruse: { maxTokensPerCall: 50000 }
 *     failureRate: { window: 20, minCalls: 10, threshold: 50% }
 *     resetTimeout: 5m
 *     halfOpenRequests: 1
 * }</pre>
 *
 * @param consecutiveTimeouts opens after N timeouts (or calls slower than a threshold) in a row
 * @param consecutiveErrors   opens after N failures of any kind in a row
 * @param consecutive5xx      opens after N server errors in a row
 * @param consecutive429      opens after N rate-limit or overload answers in a row
 * @param tokenOveruse        opens after calls that used too many tokens
 * @param failureRate         opens when the failure share over a window exceeds a threshold
 * @param slowCallRate        opens when the share of slow calls over a window exceeds a threshold
 * @param resetTimeout        how long the breaker stays open before a probe ({@code > 0})
 * @param halfOpenRequests    probes let through when half open ({@code >= 1})
 */
public record BreakerConfig(Optional<ConsecutiveTimeouts> consecutiveTimeouts,
                            OptionalInt consecutiveErrors,
                            OptionalInt consecutive5xx,
                            OptionalInt consecutive429,
                            Optional<TokenOveruse> tokenOveruse,
                            Optional<FailureRate> failureRate,
                            Optional<SlowCallRate> slowCallRate,
                            Duration resetTimeout,
                            int halfOpenRequests) {

    public BreakerConfig {
        Objects.requireNonNull(consecutiveTimeouts, "consecutiveTimeouts");
        Objects.requireNonNull(consecutiveErrors, "consecutiveErrors");
        Objects.requireNonNull(consecutive5xx, "consecutive5xx");
        Objects.requireNonNull(consecutive429, "consecutive429");
        Objects.requireNonNull(tokenOveruse, "tokenOveruse");
        Objects.requireNonNull(failureRate, "failureRate");
        Objects.requireNonNull(slowCallRate, "slowCallRate");
        Objects.requireNonNull(resetTimeout, "resetTimeout");
    }

    /** Whether at least one trigger is on; a breaker without any would never open. */
    public boolean hasTrigger() {
        return consecutiveTimeouts.isPresent() || consecutiveErrors.isPresent()
                || consecutive5xx.isPresent() || consecutive429.isPresent() || tokenOveruse.isPresent()
                || failureRate.isPresent() || slowCallRate.isPresent();
    }

    /**
     * The core breaker settings these stand for: exactly the triggers that are on, in the order
     * of this record, with {@code resetTimeout} and {@code halfOpenRequests}; everything else
     * (probe expiry, open-time backoff, classifier) keeps the core defaults.
     */
    public CircuitBreakerConfig toCircuitBreakerConfig() {
        List<Trigger> triggers = new ArrayList<>();
        consecutiveTimeouts.ifPresent(trigger -> triggers.add(Trigger.consecutiveTimeouts(trigger.count(),
                trigger.slowerThan())));
        consecutiveErrors.ifPresent(count -> triggers.add(Trigger.consecutiveErrors(count)));
        consecutive5xx.ifPresent(count -> triggers.add(Trigger.consecutive5xx(count)));
        consecutive429.ifPresent(count -> triggers.add(Trigger.consecutive429(count)));
        tokenOveruse.ifPresent(trigger -> triggers.add(new Trigger.TokenOveruse(trigger.maxTokensPerCall(),
                trigger.count())));
        failureRate.ifPresent(trigger -> triggers.add(Trigger.failureRate(trigger.window().toCore(),
                trigger.minCalls(), trigger.threshold())));
        slowCallRate.ifPresent(trigger -> triggers.add(Trigger.slowCallRate(trigger.window().toCore(),
                trigger.minCalls(), trigger.threshold(), trigger.slowerThan())));
        return CircuitBreakerConfig.builder()
                .triggers(triggers)
                .resetTimeout(resetTimeout)
                .halfOpenRequests(halfOpenRequests)
                .build();
    }

    /**
     * {@code count} timeouts in a row, where a call slower than {@code slowerThan} counts as one.
     *
     * @param count      calls in a row ({@code >= 1})
     * @param slowerThan a call at least this slow counts as timed out ({@code > 0})
     */
    public record ConsecutiveTimeouts(int count, Duration slowerThan) {

        public ConsecutiveTimeouts {
            Objects.requireNonNull(slowerThan, "slowerThan");
        }
    }

    /**
     * Calls that used more than {@code maxTokensPerCall} tokens; the breaker opens after
     * {@code count} of them in a row.
     *
     * @param maxTokensPerCall tokens one call may use ({@code >= 1})
     * @param count            over-budget calls in a row that open the breaker ({@code >= 1})
     */
    public record TokenOveruse(long maxTokensPerCall, int count) {
    }

    /**
     * The failure share over a window exceeds {@code threshold}, once the window holds at least
     * {@code minCalls} calls.
     *
     * @param window    the last N calls, or the calls of the last duration
     * @param minCalls  calls needed before the rate is judged ({@code >= 1})
     * @param threshold the failure share must exceed this to open the breaker, in [0, 1)
     */
    public record FailureRate(Window window, int minCalls, double threshold) {

        public FailureRate {
            Objects.requireNonNull(window, "window");
        }
    }

    /**
     * The share of calls slower than {@code slowerThan} over a window exceeds {@code threshold}.
     *
     * @param window     the last N calls, or the calls of the last duration
     * @param minCalls   calls needed before the rate is judged ({@code >= 1})
     * @param threshold  the slow share must exceed this to open the breaker, in [0, 1)
     * @param slowerThan a call at least this slow is slow ({@code > 0})
     */
    public record SlowCallRate(Window window, int minCalls, double threshold, Duration slowerThan) {

        public SlowCallRate {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(slowerThan, "slowerThan");
        }
    }

    /**
     * The window of a rate trigger: in YAML a count of calls ({@code window: 20}) or a duration
     * ({@code window: 60s}).
     */
    public sealed interface Window {

        /** The core window this stands for. */
        Trigger.Window toCore();

        /**
         * The last {@code size} calls.
         *
         * @param size calls in the window ({@code >= 1})
         */
        record Calls(int size) implements Window {

            @Override
            public Trigger.Window toCore() {
                return Trigger.Window.ofCalls(size);
            }
        }

        /**
         * The calls of the last {@code length}.
         *
         * @param length the window's length ({@code > 0})
         */
        record Time(Duration length) implements Window {

            public Time {
                Objects.requireNonNull(length, "length");
            }

            @Override
            public Trigger.Window toCore() {
                return Trigger.Window.ofDuration(length);
            }
        }
    }
}
