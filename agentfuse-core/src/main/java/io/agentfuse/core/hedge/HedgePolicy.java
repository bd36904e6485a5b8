package io.agentfuse.core.hedge;

import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * When to race a slow call with a second one (docs/design.md §13): if the first result has not
 * arrived {@code after} a delay, the next attempt (in a {@link io.agentfuse.core.Guard}) or the
 * next step (in a {@link io.agentfuse.core.fallback.FallbackChain}) is started too; the first to
 * produce a result wins and the other is cancelled, its breaker permit given back without an
 * outcome (neither a success nor a failure) and its bulkhead place freed. A "result" is an answer,
 * or the first content of an answer that comes in parts ({@link io.agentfuse.core.AttemptContext#firstContent()}).
 *
 * <p>The delay is fixed ({@link Builder#after(Duration)}) or adaptive: a quantile of the slow
 * one's own recent time to first result ({@link Builder#afterP95()}), read from its guard's
 * {@link LatencyEstimate} when the call starts. While too few samples are known the adaptive
 * delay is unknown and the call is not hedged. At most one hedge runs beside a call, and only
 * within the {@link HedgeBudget} (default {@link HedgeBudget#unlimited()}); a hedge is also not
 * started when its breaker or bulkhead refuses it, or when it cannot fit the request's deadline.
 * A synchronous call is hedged by running its attempts on {@code executor} (default: a shared pool
 * of daemon threads) while the caller waits, since a second attempt needs a second thread.
 *
 * <p>Immutable and thread-safe (the budget it holds is shared state, thread-safe itself).
 *
 * <pre>{@code
 * HedgePolicy hedge = HedgePolicy.builder()
 *     .after(Duration.ofSeconds(2))                        // or .afterP95()
 *     .budget(HedgeBudget.of(0.10, clock))                 // at most 10 % of recent requests
 *     .build();
 * Guard guard = Guard.builder("model:claude-sonnet-4").hedge(hedge).circuitBreaker(breaker).build();
 * }</pre>
 *
 * @param after         the fixed delay, or {@code null} when adaptive
 * @param afterQuantile the quantile of recent latency used as the delay, or 0 when fixed
 * @param budget        the share of requests that may be hedged
 * @param executor      where the attempts of a hedged synchronous call run
 */
public record HedgePolicy(Duration after, double afterQuantile, HedgeBudget budget, Executor executor) {

    /** Checks that exactly one kind of delay is set, and the rest. */
    public HedgePolicy {
        if ((after == null) == (afterQuantile == 0.0)) {
            throw new IllegalArgumentException("exactly one of after and afterQuantile must be set, but was "
                    + after + " and " + afterQuantile);
        }
        if (after != null) {
            Checks.notNegative("after", after);
        } else if (!(afterQuantile > 0.0 && afterQuantile < 1.0)) {
            throw new IllegalArgumentException("afterQuantile " + Checks.mustBe("in (0, 1)", afterQuantile));
        }
        Checks.notNull("budget", budget);
        Checks.notNull("executor", executor);
    }

    /** A builder: adaptive delay at the recent p95, no budget limit, the shared executor. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * How long to wait for the first result before hedging a call whose step's recent latency is
     * {@code latency} ({@code null} when the step keeps none): the fixed delay, or the quantile;
     * -1 when an adaptive delay is not known yet (too few samples), and the call is not hedged.
     */
    public long delayNanos(LatencyEstimate latency) {
        if (after != null) {
            return after.toNanos();
        }
        return latency == null ? -1L : latency.quantileNanos(afterQuantile);
    }

    /** Whether the delay is read from recent latency. */
    public boolean isAdaptive() {
        return after == null;
    }

    /** The delay as written: {@code 2s} or {@code p95}. */
    public String describeDelay() {
        return after != null ? after.toString() : "p" + Math.round(afterQuantile * 100);
    }

    /** Collects the settings; not thread-safe. */
    public static final class Builder {
        private Duration after;
        private double afterQuantile = 0.95;
        private HedgeBudget budget = HedgeBudget.unlimited();
        private Executor executor;

        private Builder() {
        }

        /** Hedge after a fixed {@code delay} (zero: start both at once). */
        public Builder after(Duration delay) {
            this.after = Checks.notNegative("after", delay);
            this.afterQuantile = 0.0;
            return this;
        }

        /** Hedge after the step's recent p95 of time to first result (the default). */
        public Builder afterP95() {
            return afterQuantile(0.95);
        }

        /** Hedge after the step's recent {@code quantile} (in (0, 1)) of time to first result. */
        public Builder afterQuantile(double quantile) {
            if (!(quantile > 0.0 && quantile < 1.0)) {
                throw new IllegalArgumentException("afterQuantile " + Checks.mustBe("in (0, 1)", quantile));
            }
            this.afterQuantile = quantile;
            this.after = null;
            return this;
        }

        /** The share of requests that may be hedged; default {@link HedgeBudget#unlimited()}. */
        public Builder budget(HedgeBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /** Where the attempts of a hedged synchronous call run; default a shared pool of daemon threads. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** The immutable policy. */
        public HedgePolicy build() {
            return new HedgePolicy(after, after == null ? afterQuantile : 0.0, budget,
                    executor != null ? executor : SharedExecutor.INSTANCE);
        }
    }

    /** Holder of the lazily started pool for hedged synchronous calls. */
    private static final class SharedExecutor {
        static final ExecutorService INSTANCE = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "agentfuse-hedge");
            thread.setDaemon(true);
            return thread;
        });
    }
}
