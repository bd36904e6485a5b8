package io.agentfuse.core.retry;

import io.agentfuse.core.Clock;
import io.agentfuse.core.internal.Checks;
import io.agentfuse.core.internal.ShareOfCalls;

import java.time.Duration;

/**
 * Caps retries at a share of recent calls, so that a fleet of agents cannot turn an outage into a
 * retry storm (Finagle's retry budget).
 *
 * <p>Every call deposits; every retry withdraws. Over the last {@code ttl}, retries may number at
 * most {@code percent × calls + minPerSecond × ttl}: the percentage bounds the extra load to, say,
 * 20 %, and the floor lets a quiet client still retry now and then. Share one budget between the
 * guards that call the same service.
 *
 * <p>Thread-safe and allocation-free per call.
 *
 * <pre>{@code
 * RetryBudget budget = RetryBudget.of(0.2, 10, Duration.ofSeconds(10), clock);
 * RetryPolicy retry = RetryPolicy.builder().budget(budget).build();
 * }</pre>
 */
public final class RetryBudget {

    private final double percent;
    private final int minPerSecond;
    private final Duration ttl;
    private final ShareOfCalls share;

    private RetryBudget(double percent, int minPerSecond, Duration ttl, Clock clock) {
        if (!(percent >= 0.0) || Double.isInfinite(percent)) {
            throw new IllegalArgumentException("budget.percent must be >= 0, but was " + percent);
        }
        Checks.atLeast("budget.minPerSecond", minPerSecond, 0);
        Checks.positive("budget.ttl", ttl);
        Checks.notNull("clock", clock);
        this.percent = percent;
        this.minPerSecond = minPerSecond;
        this.ttl = ttl;
        this.share = new ShareOfCalls(percent, minPerSecond * (ttl.toNanos() / 1e9), ttl.toNanos(), clock);
    }

    /** A budget on {@code clock}; the defaults of the config are {@code of(0.2, 10, 10s, clock)}. */
    public static RetryBudget of(double percent, int minPerSecond, Duration ttl, Clock clock) {
        return new RetryBudget(percent, minPerSecond, ttl, clock);
    }

    /** A budget on the system clock. */
    public static RetryBudget of(double percent, int minPerSecond, Duration ttl) {
        return new RetryBudget(percent, minPerSecond, ttl, Clock.system());
    }

    /** Counts one call (its first attempt). */
    public void deposit() {
        share.countCall();
    }

    /** Takes one retry from the budget if it allows one; returns whether it did. */
    public boolean tryWithdraw() {
        return share.tryTake();
    }

    /** Retries still allowed now (rounded down). */
    public long available() {
        return share.available();
    }

    /** The share of calls that may be retried. */
    public double percent() {
        return percent;
    }

    /** The floor of retries per second. */
    public int minPerSecond() {
        return minPerSecond;
    }

    /** The span over which calls and retries are counted. */
    public Duration ttl() {
        return ttl;
    }
}
