package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

import io.agentfuse.core.breaker.internal.CountWindow;
import io.agentfuse.core.breaker.internal.OutcomeWindow;
import io.agentfuse.core.breaker.internal.StreakCounter;
import io.agentfuse.core.breaker.internal.TimeWindow;

import java.util.ArrayList;
import java.util.List;

/**
 * CLOSED: every call passes (one volatile read), and each recorded outcome feeds the triggers.
 * Recording is lock-free and allocates nothing; only the thread whose trigger fires and wins the
 * CAS opens the breaker.
 */
final class ClosedState extends AbstractState {

    private static final StreakCounter[] NO_STREAKS = new StreakCounter[0];

    private final StreakCounter[] streaks;
    private final OutcomeWindow failureRate;
    private final OutcomeWindow slowCallRate;
    private final long slowCallNanos;
    private final boolean needsTime;

    ClosedState(CircuitBreaker breaker, long nowNanos) {
        super(breaker);
        List<StreakCounter> streakList = new ArrayList<>();
        OutcomeWindow failures = null;
        OutcomeWindow slowCalls = null;
        long slowNanos = Long.MAX_VALUE;
        for (Trigger trigger : breaker.config().triggers()) {
            if (trigger instanceof Trigger.ConsecutiveTimeouts t) {
                streakList.add(new StreakCounter(t.name(), StreakCounter.Kind.TIMEOUTS, t.count(), t.slowerThan().toNanos()));
            } else if (trigger instanceof Trigger.ConsecutiveErrors t) {
                streakList.add(new StreakCounter(t.name(), StreakCounter.Kind.ERRORS, t.count(), 0));
            } else if (trigger instanceof Trigger.Consecutive5xx t) {
                streakList.add(new StreakCounter(t.name(), StreakCounter.Kind.SERVER_ERRORS, t.count(), 0));
            } else if (trigger instanceof Trigger.Consecutive429 t) {
                streakList.add(new StreakCounter(t.name(), StreakCounter.Kind.RATE_LIMITS, t.count(), 0));
            } else if (trigger instanceof Trigger.TokenOveruse t) {
                streakList.add(new StreakCounter(t.name(), StreakCounter.Kind.TOKEN_OVERUSE, t.afterCalls(), 0));
            } else if (trigger instanceof Trigger.FailureRate t) {
                failures = window(t.name(), t.window(), t.minCalls(), t.threshold(), nowNanos);
            } else if (trigger instanceof Trigger.SlowCallRate t) {
                slowCalls = window(t.name(), t.window(), t.minCalls(), t.threshold(), nowNanos);
                slowNanos = t.slowerThan().toNanos();
            }
        }
        this.streaks = streakList.toArray(NO_STREAKS);
        this.failureRate = failures;
        this.slowCallRate = slowCalls;
        this.slowCallNanos = slowNanos;
        this.needsTime = (failures != null && failures.needsTime()) || (slowCalls != null && slowCalls.needsTime());
    }

    private static OutcomeWindow window(String name, Trigger.Window window, int minCalls, double threshold, long nowNanos) {
        return window.isCountBased()
                ? new CountWindow(name, window.calls(), minCalls, threshold)
                : new TimeWindow(name, window.duration().toNanos(), minCalls, threshold, nowNanos);
    }

    @Override
    CircuitState kind() {
        return CircuitState.CLOSED;
    }

    @Override
    long tryAcquire() {
        return stamp;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
        if (outcome.isIgnoredByBreaker()) {
            return;
        }
        long now = needsTime ? breaker.clock().nanoTime() : 0L;
        String reason = null;
        for (StreakCounter streak : streaks) {
            if (streak.record(outcome, durationNanos) && reason == null) {
                reason = streak.reason();
            }
        }
        if (failureRate != null && failureRate.record(outcome.isFailure(), now) && reason == null) {
            reason = failureRate.reason(now);
        }
        if (slowCallRate != null && slowCallRate.record(durationNanos > slowCallNanos, now) && reason == null) {
            reason = slowCallRate.reason(now);
        }
        if (reason != null) {
            breaker.transitions().trip(this, reason, retryAfterNanos);
        }
    }

    @Override
    void addCounts(BreakerCounts.Builder counts, long nowNanos) {
        for (StreakCounter streak : streaks) {
            streak.addCounts(counts);
        }
        if (failureRate != null) {
            failureRate.addCounts(counts, nowNanos);
        }
        if (slowCallRate != null) {
            slowCallRate.addCounts(counts, nowNanos);
        }
    }
}
