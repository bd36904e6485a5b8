package io.agentfuse.core.hedge;

import io.agentfuse.core.Clock;
import io.agentfuse.core.internal.Checks;
import io.agentfuse.core.internal.ShareOfCalls;

import java.time.Duration;

/**
 * Caps hedges at a share of recent requests ({@code maxShare}, the config's
 * {@code models.<m>.hedge.maxShare}), so that hedging a slow provider cannot double the load on
 * it in an outage. Every request under a {@link HedgePolicy} counts once; every hedge takes one:
 * over the last {@code window}, hedges may number at most {@code maxShare × requests}. The
 * arithmetic is the retry budget's ({@link io.agentfuse.core.retry.RetryBudget}), without a floor:
 * a model that had ten requests in the window may hedge one of them at 10 %.
 *
 * <p>Share one budget between everything that hedges for the same model. Thread-safe and
 * allocation-free per request.
 *
 * <pre>{@code
 * HedgeBudget budget = HedgeBudget.of(0.10, Duration.ofSeconds(10), clock);
 * HedgePolicy hedge = HedgePolicy.builder().afterP95().budget(budget).build();
 * }</pre>
 */
public final class HedgeBudget {

    /** The window over which requests and hedges are counted by default. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    private static final HedgeBudget UNLIMITED = new HedgeBudget();

    private final double maxShare;
    private final Duration window;
    private final ShareOfCalls share;

    private HedgeBudget(double maxShare, Duration window, Clock clock) {
        this.maxShare = Checks.share("maxShare", maxShare);
        this.window = Checks.positive("window", window);
        Checks.notNull("clock", clock);
        this.share = new ShareOfCalls(maxShare, 0.0, window.toNanos(), clock);
    }

    private HedgeBudget() {
        this.maxShare = 1.0;
        this.window = null;
        this.share = null;
    }

    /** At most {@code maxShare} (in (0, 1]) of the requests of the last {@code window} may be hedged. */
    public static HedgeBudget of(double maxShare, Duration window, Clock clock) {
        return new HedgeBudget(maxShare, window, clock);
    }

    /** {@link #of(double, Duration, Clock)} over {@link #DEFAULT_WINDOW}. */
    public static HedgeBudget of(double maxShare, Clock clock) {
        return new HedgeBudget(maxShare, DEFAULT_WINDOW, clock);
    }

    /** No limit: every request may be hedged. */
    public static HedgeBudget unlimited() {
        return UNLIMITED;
    }

    /** Counts one request that might be hedged. */
    public void countRequest() {
        if (share != null) {
            share.countCall();
        }
    }

    /** Takes one hedge if the budget allows it now; returns whether it did. */
    public boolean tryHedge() {
        return share == null || share.tryTake();
    }

    /** Hedges still allowed now ({@link Long#MAX_VALUE} when unlimited). */
    public long available() {
        return share == null ? Long.MAX_VALUE : share.available();
    }

    /** The share of requests that may be hedged (1 when unlimited). */
    public double maxShare() {
        return maxShare;
    }

    /** The window requests and hedges are counted over; {@code null} when unlimited. */
    public Duration window() {
        return window;
    }

    @Override
    public String toString() {
        return share == null ? "HedgeBudget[unlimited]" : "HedgeBudget[" + maxShare + " of " + window + "]";
    }
}
