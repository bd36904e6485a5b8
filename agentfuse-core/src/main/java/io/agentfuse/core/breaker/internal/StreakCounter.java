package io.agentfuse.core.breaker.internal;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.BreakerCounts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts calls "in a row" that match one kind of failure; any other recorded outcome breaks the
 * streak. Lock-free and allocation-free: a matching call is one atomic add, a non-matching call
 * one plain read (and a write only when a streak was running).
 *
 * <p>Internal: used by the breaker's closed state, not a public API.
 */
public final class StreakCounter {

    /** What a streak counts. */
    public enum Kind {
        /** {@code TIMEOUT}, or any call slower than the trigger's {@code slowerThan}. */
        TIMEOUTS,
        /** Any failure. */
        ERRORS,
        /** {@code SERVER_ERROR}. */
        SERVER_ERRORS,
        /** {@code RATE_LIMITED} or {@code OVERLOADED}. */
        RATE_LIMITS,
        /** {@code TOKEN_OVERUSE}. */
        TOKEN_OVERUSE;

        boolean matches(Outcome outcome, long durationNanos, long slowerThanNanos) {
            return switch (this) {
                case TIMEOUTS -> outcome == Outcome.TIMEOUT || durationNanos > slowerThanNanos;
                case ERRORS -> outcome.isFailure();
                case SERVER_ERRORS -> outcome == Outcome.SERVER_ERROR;
                case RATE_LIMITS -> outcome.isRateLimit();
                case TOKEN_OVERUSE -> outcome == Outcome.TOKEN_OVERUSE;
            };
        }
    }

    private static final VarHandle STREAK;

    static {
        try {
            STREAK = MethodHandles.lookup().findVarHandle(StreakCounter.class, "streak", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String triggerName;
    private final Kind kind;
    private final int threshold;
    private final long slowerThanNanos;
    @SuppressWarnings("unused") // accessed through STREAK
    private volatile int streak;

    /**
     * @param triggerName     the configured trigger's name, used in reasons and counts
     * @param kind            what the streak counts
     * @param threshold       the streak length at which the trigger fires
     * @param slowerThanNanos for {@link Kind#TIMEOUTS}: calls slower than this count; else unused
     */
    public StreakCounter(String triggerName, Kind kind, int threshold, long slowerThanNanos) {
        this.triggerName = triggerName;
        this.kind = kind;
        this.threshold = threshold;
        this.slowerThanNanos = slowerThanNanos <= 0 ? Long.MAX_VALUE : slowerThanNanos;
    }

    /** Records one call; returns whether the streak has reached the threshold. */
    public boolean record(Outcome outcome, long durationNanos) {
        if (kind.matches(outcome, durationNanos, slowerThanNanos)) {
            return (int) STREAK.getAndAdd(this, 1) + 1 >= threshold;
        }
        if (streak != 0) {
            streak = 0;
        }
        return false;
    }

    /** The reason text used when this streak opens the breaker. */
    public String reason() {
        return triggerName + ": " + streak + " in a row (threshold " + threshold + ")";
    }

    /** Adds this streak's current length to {@code counts}. */
    public void addCounts(BreakerCounts.Builder counts) {
        counts.streak(triggerName, streak);
    }
}
