package io.agentfuse.core.internal;

import io.agentfuse.core.Clock;
import io.agentfuse.core.breaker.internal.SlidingCounter;

/**
 * The one arithmetic of a budget that allows extra work (a retry, a hedge) up to a share of recent
 * calls: over the last {@code span}, extras may number at most {@code share × calls + floor}.
 * Both the retry budget and the hedge budget are this, so they cannot drift apart.
 *
 * <p>Thread-safe and allocation-free per call. Not part of the public API.
 */
public final class ShareOfCalls {

    private final double share;
    private final double floor;
    private final Clock clock;
    private final SlidingCounter calls;
    private final SlidingCounter extras;

    /** A budget of {@code share} of the calls of the last {@code spanNanos}, plus {@code floor} extras, on {@code clock}. */
    public ShareOfCalls(double share, double floor, long spanNanos, Clock clock) {
        this.share = share;
        this.floor = floor;
        this.clock = clock;
        this.calls = new SlidingCounter(spanNanos);
        this.extras = new SlidingCounter(spanNanos);
    }

    /**
     * The rule, as a pure function: whether one more extra is allowed when {@code taken} extras and
     * {@code calls} calls were counted: {@code taken + 1 <= floor + share × calls}.
     */
    public static boolean allowsOneMore(long taken, long calls, double share, double floor) {
        return taken + 1 <= floor + share * calls;
    }

    /** How many more extras the rule allows now (rounded down, never negative). */
    public static long available(long taken, long calls, double share, double floor) {
        return Math.max(0L, (long) (floor + share * calls) - taken);
    }

    /** Counts one call. */
    public void countCall() {
        calls.add(clock.nanoTime());
    }

    /** Takes one extra if the rule allows it now; returns whether it did. */
    public boolean tryTake() {
        long now = clock.nanoTime();
        if (!allowsOneMore(extras.sum(now), calls.sum(now), share, floor)) {
            return false;
        }
        extras.add(now);
        return true;
    }

    /** Extras still allowed now. */
    public long available() {
        long now = clock.nanoTime();
        return available(extras.sum(now), calls.sum(now), share, floor);
    }
}
