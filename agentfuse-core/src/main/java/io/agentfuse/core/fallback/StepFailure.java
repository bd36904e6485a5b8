package io.agentfuse.core.fallback;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitOpenException;

/**
 * Why one step of a {@link FallbackChain} did not answer: skipped without a call (open breaker,
 * full bulkhead, a request the step cannot serve) or called and failed.
 *
 * @param step            the step's name
 * @param skipped         whether the step was passed over without being called
 * @param outcome         how it ended; {@code null} for a skipped step
 * @param reason          a human sentence: "circuit open (consecutive5xx: 3 in a row …)", "HTTP 503", …
 * @param retryAfterNanos for a step skipped by an open breaker, the time until it reopens; else -1
 * @param cause           the error, or {@code null}
 */
public record StepFailure(String step, boolean skipped, Outcome outcome, String reason, long retryAfterNanos,
                          Throwable cause) {

    /** A step skipped because its breaker rejected the call. */
    public static StepFailure circuitOpen(String step, CircuitOpenException rejection) {
        return new StepFailure(step, true, null, "circuit open: " + rejection.rejection().message(),
                rejection.rejection().retryAfterNanos(), rejection);
    }

    /** A step skipped for {@code reason} without a call. */
    public static StepFailure skipped(String step, String reason, Throwable cause) {
        return new StepFailure(step, true, null, reason, -1, cause);
    }

    /** A step that was called and ended as {@code outcome}. */
    public static StepFailure failed(String step, Outcome outcome, Throwable cause) {
        String reason = cause == null ? outcome.name() : outcome + ": " + cause.getMessage();
        return new StepFailure(step, false, outcome, reason, -1, cause);
    }

    /** Whether the step was skipped because its breaker was open. */
    public boolean skippedByOpenCircuit() {
        return skipped && cause instanceof CircuitOpenException;
    }

    @Override
    public String toString() {
        return step + " " + (skipped ? "skipped" : "failed") + " (" + reason + ")";
    }
}
