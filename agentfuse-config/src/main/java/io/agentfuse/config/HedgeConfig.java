package io.agentfuse.config;

import io.agentfuse.core.Clock;
import io.agentfuse.core.hedge.HedgeBudget;
import io.agentfuse.core.hedge.HedgePolicy;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A model's {@code hedge:} (docs/design.md §13): when the first content of an answer has not arrived
 * {@code after} a delay, the next step of the chain is started too, for at most {@code maxShare}
 * of the model's recent requests. Defaults ({@link ConfigDefaults#HEDGE}): {@code after: p95}
 * (the model's own recent p95 of time to first result; no hedge until it has five recent
 * answers), {@code maxShare: 10%}. Immutable and thread-safe.
 *
 * <pre>{@code
 * models:
 *   claude-sonnet-4:
 *     hedge: { after: 2s, maxShare: 10% }   # or after: p95
 * }</pre>
 *
 * @param after    the fixed delay, or empty when the delay is a quantile of recent latency
 * @param quantile that quantile (0.95 for {@code p95}), or 0 with a fixed delay
 * @param maxShare the share of recent requests that may be hedged, in (0, 1]
 */
public record HedgeConfig(Optional<Duration> after, double quantile, double maxShare) {

    public HedgeConfig {
        Objects.requireNonNull(after, "after");
        if (after.isPresent() == (quantile != 0.0)) {
            throw new IllegalArgumentException("exactly one of after and quantile must be set, but was "
                    + after + " and " + quantile);
        }
    }

    /** A hedge after the recent {@code quantile} of time to first result. */
    public static HedgeConfig afterQuantile(double quantile, double maxShare) {
        return new HedgeConfig(Optional.empty(), quantile, maxShare);
    }

    /** A hedge after a fixed {@code delay}. */
    public static HedgeConfig after(Duration delay, double maxShare) {
        return new HedgeConfig(Optional.of(delay), 0.0, maxShare);
    }

    /** The core policy these settings stand for, drawing on {@code budget} (one per model, see {@link #toHedgeBudget}). */
    public HedgePolicy toHedgePolicy(HedgeBudget budget) {
        HedgePolicy.Builder policy = HedgePolicy.builder().budget(budget);
        return after.map(policy::after).orElseGet(() -> policy.afterQuantile(quantile)).build();
    }

    /** A fresh budget of {@code maxShare} over the core's default window, on {@code clock}. */
    public HedgeBudget toHedgeBudget(Clock clock) {
        return HedgeBudget.of(maxShare, clock);
    }

    /** The delay as the file writes it: {@code 2s} or {@code p95}. */
    public String describeAfter() {
        return after.map(DurationFormat::format).orElseGet(() -> "p" + Math.round(quantile * 100));
    }
}
