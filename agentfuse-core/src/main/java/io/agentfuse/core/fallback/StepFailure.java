package io.agentfuse.core.fallback;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.timeout.DeadlineExceededException;

/**
 * Why one step of a {@link FallbackChain} did not answer: called and failed, or skipped without a
 * call for a typed {@link Kind} (open breaker, full bulkhead, an input the step cannot serve, no
 * time left before the request's deadline).
 *
 * @param step            the step's name
 * @param kind            whether it was called, and if not, why it was skipped
 * @param outcome         how a called step ended; {@code null} for a skipped step
 * @param reason          a human sentence: "circuit open (consecutive5xx: 3 in a row …)", "HTTP 503", …
 * @param retryAfterNanos for a step skipped by an open breaker, the time until it reopens; else -1
 * @param cause           the error, or {@code null}
 */
public record StepFailure(String step, Kind kind, Outcome outcome, String reason, long retryAfterNanos,
                          Throwable cause) {

    /** Whether a step was called, and if not, why it was passed over. */
    public enum Kind {
        /** The step was called and failed with {@link #outcome()}. */
        FAILED,
        /** Skipped without a call: its breaker was open. */
        CIRCUIT_OPEN,
        /** Skipped without a call: its bulkhead was full. */
        BULKHEAD_FULL,
        /**
         * Skipped without a call: the step's {@code skipWhen} said it cannot serve this input (in the
         * gateway, a request that cannot be translated to the step's dialect).
         */
        UNSERVABLE,
        /**
         * Not started: it could not fit the time left before the request's deadline (its recent
         * median latency is longer than what was left, or nothing was left); docs/design.md §13.
         */
        DEADLINE
    }

    /** A step skipped because its breaker rejected the call. */
    public static StepFailure circuitOpen(String step, CircuitOpenException rejection) {
        return new StepFailure(step, Kind.CIRCUIT_OPEN, null, "circuit open: " + rejection.rejection().message(),
                rejection.rejection().retryAfterNanos(), rejection);
    }

    /** A step skipped because its bulkhead was full. */
    public static StepFailure bulkheadFull(String step, BulkheadFullException full) {
        return new StepFailure(step, Kind.BULKHEAD_FULL, null, full.getMessage(), -1, full);
    }

    /** A step skipped because it cannot serve the input, for {@code reason}. */
    public static StepFailure unservable(String step, String reason) {
        return new StepFailure(step, Kind.UNSERVABLE, null, reason, -1, null);
    }

    /**
     * A step not started for the request's deadline: {@code remainingNanos} were left and it recently
     * took {@code medianNanos} (-1: unknown). Its cause says so as a {@link DeadlineExceededException}.
     */
    public static StepFailure noTime(String step, long remainingNanos, long medianNanos) {
        DeadlineExceededException cause = DeadlineExceededException.noTimeFor("step " + step, remainingNanos, medianNanos);
        return new StepFailure(step, Kind.DEADLINE, null, cause.getMessage(), -1, cause);
    }

    /** A step that was called and ended as {@code outcome}. */
    public static StepFailure failed(String step, Outcome outcome, Throwable cause) {
        String reason = cause == null ? outcome.name() : outcome + ": " + cause.getMessage();
        return new StepFailure(step, Kind.FAILED, outcome, reason, -1, cause);
    }

    /** Checks that there is a kind, and an outcome exactly when the step was called. */
    public StepFailure {
        if (kind == null) {
            throw new IllegalArgumentException("kind must be set, but was null");
        }
        if ((kind == Kind.FAILED) != (outcome != null)) {
            throw new IllegalArgumentException("outcome must be set exactly for a called step, but was " + outcome
                    + " for " + kind);
        }
    }

    /** Whether the step was passed over without being called. */
    public boolean skipped() {
        return kind != Kind.FAILED;
    }

    /** Whether the step was skipped because its breaker was open. */
    public boolean skippedByOpenCircuit() {
        return kind == Kind.CIRCUIT_OPEN;
    }

    @Override
    public String toString() {
        return step + " " + (skipped() ? "skipped" : "failed") + " (" + reason + ")";
    }
}
