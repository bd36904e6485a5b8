package io.agentfuse.core;

/**
 * How one attempt of a call ended, classified once: the value that the breaker, the retry
 * decision, the fallback chain, listeners and metrics all read, so that none of them classifies
 * the same failure again (and none of them can disagree).
 *
 * <pre>{@code
 * AttemptResult failed = AttemptResult.failure(Outcome.RATE_LIMITED, error, elapsedNanos, RetryAfter.ofError(error, now));
 * breaker.onResult(permit, failed);
 * }</pre>
 *
 * @param outcome         the outcome kind
 * @param cause           the failure ({@code null} for a normal return)
 * @param durationNanos   how long the attempt took, or -1 when it was not measured
 * @param tokens          tokens the answer used, or 0 when unknown
 * @param retryAfterNanos the wait the server asked for ({@code Retry-After} and its relatives),
 *                        or {@link RetryAfter#NONE}
 */
public record AttemptResult(Outcome outcome, Throwable cause, long durationNanos, long tokens, long retryAfterNanos) {

    /** Checks that there is an outcome. */
    public AttemptResult {
        if (outcome == null) {
            throw new IllegalArgumentException("outcome must be set, but was null");
        }
    }

    /** A normal return classified as {@code outcome} (SUCCESS, or what a result rule or the token limit made of it). */
    public static AttemptResult returned(Outcome outcome, long durationNanos, long tokens) {
        return new AttemptResult(outcome, null, durationNanos, tokens, RetryAfter.NONE);
    }

    /** A failure classified as {@code outcome}. */
    public static AttemptResult failure(Outcome outcome, Throwable cause, long durationNanos, long retryAfterNanos) {
        return new AttemptResult(outcome, cause, durationNanos, 0L, retryAfterNanos);
    }

    /** Whether the attempt succeeded. */
    public boolean isSuccess() {
        return outcome == Outcome.SUCCESS;
    }

    /** Whether the server said how long to wait. */
    public boolean hasRetryAfter() {
        return retryAfterNanos != RetryAfter.NONE;
    }
}
