package io.agentfuse.core.breaker.internal;

import io.agentfuse.core.breaker.BreakerCounts;

import java.util.Locale;

/**
 * The share of "hits" (failures, or slow calls) among recent calls, for the rate triggers.
 * Implementations are lock-free on the common path and allocate nothing per call.
 *
 * <p>Internal: used by the breaker's closed state, not a public API.
 */
public abstract class OutcomeWindow {

    private final String triggerName;
    private final int minCalls;
    private final double threshold;

    OutcomeWindow(String triggerName, int minCalls, double threshold) {
        this.triggerName = triggerName;
        this.minCalls = minCalls;
        this.threshold = threshold;
    }

    /**
     * Records one call and returns whether the hit share now exceeds the threshold. Only a hit
     * can raise the share; a non-hit matters only when it is the call that brings the window up
     * to {@code minCalls}, so implementations evaluate non-hits only while that can happen.
     *
     * @param hit       whether the call counts as a hit
     * @param nowNanos  the clock reading at the end of the call (time-based windows only)
     */
    public abstract boolean record(boolean hit, long nowNanos);

    /** Calls in the window now. */
    abstract long calls(long nowNanos);

    /** Hits in the window now. */
    abstract long hits(long nowNanos);

    /** Whether {@link #record} needs a clock reading. */
    public abstract boolean needsTime();

    final int minCalls() {
        return minCalls;
    }

    final boolean exceeds(long calls, long hits) {
        return calls >= minCalls && hits > threshold * calls;
    }

    /** The reason text used when this window opens the breaker. */
    public String reason(long nowNanos) {
        long calls = calls(nowNanos);
        long hits = hits(nowNanos);
        // Locale.ROOT: the reason goes to logs and the admin API, so "50.0%" must not become "50,0%".
        return String.format(Locale.ROOT, "%s: %d of %d calls (%.1f%% > %.1f%%)", triggerName, hits, calls,
                calls == 0 ? 0.0 : 100.0 * hits / calls, 100.0 * threshold);
    }

    /** Adds the window's calls and hits to {@code counts}. */
    public void addCounts(BreakerCounts.Builder counts, long nowNanos) {
        counts.window(triggerName, calls(nowNanos), hits(nowNanos));
    }
}
