package io.agentfuse.core.breaker;

import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.List;

/**
 * A condition that opens a {@link CircuitBreaker}. A breaker has any number of triggers; the
 * first one that fires opens it and becomes the recorded reason.
 *
 * <p>Triggers are immutable values. "In a row" streaks are broken by any recorded outcome the
 * trigger does not match; {@link io.agentfuse.core.Outcome#CLIENT_ERROR} is never recorded, so it neither counts
 * nor breaks a streak. Streak triggers fire exactly when the streak reaches {@code count}.
 *
 * <pre>{@code
 * CircuitBreakerConfig config = CircuitBreakerConfig.builder()
 *     .trigger(Trigger.consecutive5xx(3))
 *     .trigger(Trigger.failureRate(Window.ofCalls(20), 10, 0.5))
 *     .build();
 * }</pre>
 */
public sealed interface Trigger {

    /** The trigger's name as written in configuration, e.g. {@code consecutive5xx}. */
    String name();

    /**
     * The seed's defaults: 3 timeouts (or calls slower than 60 s) in a row, 5 errors in a row,
     * 3 × 5xx in a row, 2 × 429 in a row, one call over 50 000 tokens, and over 50 % failures
     * among the last 20 calls once at least 10 were made.
     */
    static List<Trigger> defaults() {
        return List.of(
                consecutiveTimeouts(3, Duration.ofSeconds(60)),
                consecutiveErrors(5),
                consecutive5xx(3),
                consecutive429(2),
                tokenOveruse(50_000),
                failureRate(Window.ofCalls(20), 10, 0.5));
    }

    /** {@code count} calls in a row that timed out or ran slower than {@code slowerThan}. */
    static Trigger consecutiveTimeouts(int count, Duration slowerThan) {
        return new ConsecutiveTimeouts(count, slowerThan);
    }

    /** {@code count} failures of any kind in a row. */
    static Trigger consecutiveErrors(int count) {
        return new ConsecutiveErrors(count);
    }

    /** {@code count} {@link io.agentfuse.core.Outcome#SERVER_ERROR}s in a row ("tool unavailable"). */
    static Trigger consecutive5xx(int count) {
        return new Consecutive5xx(count);
    }

    /** {@code count} {@link io.agentfuse.core.Outcome#RATE_LIMITED} or {@link io.agentfuse.core.Outcome#OVERLOADED} in a row ("model overload"). */
    static Trigger consecutive429(int count) {
        return new Consecutive429(count);
    }

    /** One call that used more than {@code maxTokensPerCall} tokens. */
    static Trigger tokenOveruse(long maxTokensPerCall) {
        return new TokenOveruse(maxTokensPerCall, 1);
    }

    /**
     * Failure share strictly above {@code threshold} (in [0, 1)) over {@code window}, once the
     * window holds at least {@code minCalls} calls: the seed's "more than M % of the last N calls".
     */
    static Trigger failureRate(Window window, int minCalls, double threshold) {
        return new FailureRate(window, minCalls, threshold);
    }

    /** Share of calls slower than {@code slowerThan} above {@code threshold} over {@code window}. */
    static Trigger slowCallRate(Window window, int minCalls, double threshold, Duration slowerThan) {
        return new SlowCallRate(window, minCalls, threshold, slowerThan);
    }

    /** See {@link Trigger#consecutiveTimeouts(int, Duration)}. */
    record ConsecutiveTimeouts(int count, Duration slowerThan) implements Trigger {
        public ConsecutiveTimeouts {
            Checks.atLeast("consecutiveTimeouts.count", count, 1);
            Checks.positive("consecutiveTimeouts.slowerThan", slowerThan);
        }

        @Override
        public String name() {
            return "consecutiveTimeouts";
        }
    }

    /** See {@link Trigger#consecutiveErrors(int)}. */
    record ConsecutiveErrors(int count) implements Trigger {
        public ConsecutiveErrors {
            Checks.atLeast("consecutiveErrors.count", count, 1);
        }

        @Override
        public String name() {
            return "consecutiveErrors";
        }
    }

    /** See {@link Trigger#consecutive5xx(int)}. */
    record Consecutive5xx(int count) implements Trigger {
        public Consecutive5xx {
            Checks.atLeast("consecutive5xx.count", count, 1);
        }

        @Override
        public String name() {
            return "consecutive5xx";
        }
    }

    /** See {@link Trigger#consecutive429(int)}. */
    record Consecutive429(int count) implements Trigger {
        public Consecutive429 {
            Checks.atLeast("consecutive429.count", count, 1);
        }

        @Override
        public String name() {
            return "consecutive429";
        }
    }

    /**
     * Calls that used more than {@code maxTokensPerCall} tokens, {@code afterCalls} of them in a
     * row (the seed: one is enough).
     */
    record TokenOveruse(long maxTokensPerCall, int afterCalls) implements Trigger {
        public TokenOveruse {
            Checks.atLeast("tokenOveruse.maxTokensPerCall", maxTokensPerCall, 1);
            Checks.atLeast("tokenOveruse.afterCalls", afterCalls, 1);
        }

        @Override
        public String name() {
            return "tokenOveruse";
        }
    }

    /** See {@link Trigger#failureRate(Window, int, double)}. */
    record FailureRate(Window window, int minCalls, double threshold) implements Trigger {
        public FailureRate {
            Checks.notNull("failureRate.window", window);
            Checks.atLeast("failureRate.minCalls", minCalls, 1);
            Checks.rateThreshold("failureRate.threshold", threshold);
            if (window.isCountBased() && minCalls > window.calls()) {
                throw new IllegalArgumentException("failureRate.minCalls must be <= window ("
                        + window.calls() + "), but was " + minCalls);
            }
        }

        @Override
        public String name() {
            return "failureRate";
        }
    }

    /** See {@link Trigger#slowCallRate(Window, int, double, Duration)}. */
    record SlowCallRate(Window window, int minCalls, double threshold, Duration slowerThan) implements Trigger {
        public SlowCallRate {
            Checks.notNull("slowCallRate.window", window);
            Checks.atLeast("slowCallRate.minCalls", minCalls, 1);
            Checks.rateThreshold("slowCallRate.threshold", threshold);
            Checks.positive("slowCallRate.slowerThan", slowerThan);
            if (window.isCountBased() && minCalls > window.calls()) {
                throw new IllegalArgumentException("slowCallRate.minCalls must be <= window ("
                        + window.calls() + "), but was " + minCalls);
            }
        }

        @Override
        public String name() {
            return "slowCallRate";
        }
    }

    /**
     * The span a rate trigger looks at: the last {@code calls} calls, or the calls of the last
     * {@code duration}. Exactly one of the two is set.
     *
     * @param calls    the number of most recent calls, or 0 for a time-based window
     * @param duration the time span, or {@code null} for a count-based window
     */
    record Window(int calls, Duration duration) {
        public Window {
            if ((calls > 0) == (duration != null)) {
                throw new IllegalArgumentException("window must be either a positive count of calls or a duration, but was "
                        + (duration == null ? calls : duration));
            }
            if (duration != null) {
                Checks.positive("window", duration);
            }
        }

        /** The last {@code calls} calls. */
        public static Window ofCalls(int calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("window must be >= 1 call, but was " + calls);
            }
            return new Window(calls, null);
        }

        /** The calls of the last {@code duration}. */
        public static Window ofDuration(Duration duration) {
            return new Window(0, duration);
        }

        /** Whether the window counts calls rather than time. */
        public boolean isCountBased() {
            return duration == null;
        }

        @Override
        public String toString() {
            return isCountBased() ? calls + " calls" : duration.toString();
        }
    }
}
