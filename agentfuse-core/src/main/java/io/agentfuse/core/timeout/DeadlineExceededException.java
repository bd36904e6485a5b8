package io.agentfuse.core.timeout;

import java.time.Duration;

/**
 * A request's {@link io.agentfuse.core.Deadline} ended it: an attempt whose timeout the deadline
 * had cut did not finish in the time left, or there was no time left to call at all. A
 * {@link CallTimeoutException}, so it is classified as {@link io.agentfuse.core.Outcome#TIMEOUT}
 * (the gateway answers 504 {@code timeout}); {@link #called()} tells the two cases apart.
 *
 * <p>An attempt that was made and cut is recorded by its breaker as a timeout only when it had at
 * least the time its step usually answers in (the step's recent median latency, {@link #showsSlowCallee}):
 * then the step was slower than it has been. Cut sooner, or with no recent median to judge by (a
 * step rarely called, just after a start or a reload), it is recorded as neither success nor failure,
 * as a caller who leaves is: a caller's short {@code x-agentfuse-deadline} says nothing about the
 * model, and must not open a breaker that every caller shares. One that was never made is recorded
 * nowhere.
 *
 * <p>Immutable; no stack trace is filled in.
 */
public final class DeadlineExceededException extends CallTimeoutException {

    private final boolean called;

    private DeadlineExceededException(String message, Duration limit, boolean called) {
        super(message, limit);
        this.called = called;
    }

    /** An attempt cut by the deadline after {@code limit}, the time that was left when it started. */
    public static DeadlineExceededException cut(Duration limit) {
        return new DeadlineExceededException("call did not finish within the " + limit.toMillis()
                + " ms left before the request's deadline", limit, true);
    }

    /** Nothing was called: {@code what} had no time left before the request's deadline. */
    public static DeadlineExceededException beforeCalling(String what) {
        return new DeadlineExceededException("the request's deadline passed before " + what + " was called",
                Duration.ZERO, false);
    }

    /**
     * Nothing was called: {@code what} was not started because it could not fit the
     * {@code remainingNanos} left, taking {@code medianNanos} of late (-1: unknown, and no time was left).
     */
    public static DeadlineExceededException noTimeFor(String what, long remainingNanos, long medianNanos) {
        String why = medianNanos < 0 || remainingNanos <= 0 ? "no time was left"
                : Duration.ofNanos(remainingNanos).toMillis() + " ms were left and it takes "
                + Duration.ofNanos(medianNanos).toMillis() + " ms (recent median)";
        return new DeadlineExceededException(what + " was not started before the request's deadline: " + why,
                Duration.ofNanos(Math.max(0L, remainingNanos)), false);
    }

    /**
     * Whether this cut shows its callee slow: an attempt was made, and the time it had was at least
     * {@code medianNanos}, its step's recent median latency ({@code -1} when unknown: then it shows nothing).
     */
    public boolean showsSlowCallee(long medianNanos) {
        return called && medianNanos >= 0 && medianNanos <= timeout().toNanos();
    }

    /** Whether an attempt was made (and cut), rather than none at all. */
    public boolean called() {
        return called;
    }
}
