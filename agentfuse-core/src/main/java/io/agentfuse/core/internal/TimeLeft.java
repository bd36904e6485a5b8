package io.agentfuse.core.internal;

/**
 * The arithmetic of a request's deadline, as pure functions of monotonic nanoseconds, so that the
 * guard, the fallback chain and hedging decide alike and the rules can be property-tested.
 * {@link #NO_DEADLINE} ({@link Long#MAX_VALUE}) stands for "no deadline" everywhere and never
 * overflows: every sum saturates.
 *
 * <p>Not part of the public API: it may change without notice.
 */
public final class TimeLeft {

    /** The deadline, remaining time or limit that stands for "none". */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private TimeLeft() {
    }

    /** {@code nowNanos + spanNanos}, or {@link #NO_DEADLINE} when that does not fit a {@code long} (or the span is none). */
    public static long deadlineAfter(long nowNanos, long spanNanos) {
        if (spanNanos == NO_DEADLINE) {
            return NO_DEADLINE;
        }
        long sum = nowNanos + spanNanos;
        // Overflow only when both have the same sign and the sum's sign differs.
        return ((nowNanos ^ sum) & (spanNanos ^ sum)) < 0 ? (spanNanos > 0 ? NO_DEADLINE : Long.MIN_VALUE) : sum;
    }

    /** The sooner of two deadlines. */
    public static long sooner(long deadlineNanos, long otherNanos) {
        return Math.min(deadlineNanos, otherNanos);
    }

    /**
     * The time left before {@code deadlineNanos} at {@code nowNanos}, never negative;
     * {@link #NO_DEADLINE} without a deadline.
     */
    public static long remaining(long deadlineNanos, long nowNanos) {
        if (deadlineNanos == NO_DEADLINE) {
            return NO_DEADLINE;
        }
        return deadlineNanos <= nowNanos ? 0L : saturatedDifference(deadlineNanos, nowNanos);
    }

    private static long saturatedDifference(long later, long earlier) {
        long difference = later - earlier;
        return difference < 0 ? NO_DEADLINE - 1 : difference; // overflowed: farther than a long holds, still a deadline
    }

    /**
     * The fit rule (docs/design.md §13): whether something that starts after a wait of
     * {@code waitNanos} and usually takes {@code medianNanos} ends before the deadline, with
     * {@code remainingNanos} left now. It fits when the time left after the wait is more than the
     * median; with no median known ({@code < 0}: too few recent samples), when any time is left
     * after the wait at all, since an attempt with none would be doomed. Without a deadline
     * everything fits.
     */
    public static boolean fits(long remainingNanos, long waitNanos, long medianNanos) {
        if (remainingNanos == NO_DEADLINE) {
            return true;
        }
        long afterWait = remainingNanos - Math.max(0L, waitNanos);
        return afterWait > Math.max(0L, medianNanos);
    }

    /**
     * The limit of one attempt: its own timeout ({@code timeoutNanos}, {@link #NO_DEADLINE} for
     * none) cut to the time left, so that no attempt that was started can outlive the deadline.
     * {@link #NO_DEADLINE} when there is neither.
     */
    public static long attemptLimit(long remainingNanos, long timeoutNanos) {
        return Math.max(0L, Math.min(remainingNanos, timeoutNanos));
    }

    /** Whether an attempt limit of {@code limitNanos} was set by the deadline rather than by the timeout. */
    public static boolean cutByDeadline(long limitNanos, long timeoutNanos) {
        return limitNanos < timeoutNanos;
    }
}
