package io.agentfuse.agent.context;

/**
 * A summariser answered, but its summary cannot be used: blank, or not smaller than what it
 * would replace. The compaction run keeps the original conversation and degrades to snipping;
 * this is the failure in its report.
 *
 * <p>Immutable; no stack trace is filled in.
 *
 * <pre>{@code
 * if (report.failure() instanceof InvalidSummaryException invalid) { log.info(invalid.getMessage()); }
 * }</pre>
 */
public class InvalidSummaryException extends RuntimeException {

    /** @param message what is wrong with the summary */
    public InvalidSummaryException(String message) {
        super(message, null, false, false);
    }
}
