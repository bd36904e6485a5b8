package io.agentfuse.agent.context;

/**
 * What happened to the summarising step of one compaction run.
 *
 * <pre>{@code
 * if (report.summary() == SummaryOutcome.FAILED) { log.warn("summary rolled back", report.failure()); }
 * }</pre>
 */
public enum SummaryOutcome {
    /** The level did not call for a summary, no summariser is configured, or nothing was old enough. */
    NOT_ATTEMPTED,
    /** A valid summary replaced the older turns. */
    SUCCEEDED,
    /** The summariser failed, timed out or gave an unusable summary; the original was kept. */
    FAILED,
    /** Summaries failed too often in a row; snipping went ahead without asking the summariser. */
    SKIPPED_IN_COOLDOWN
}
