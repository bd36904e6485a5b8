package io.agentfuse.agent.context;

/**
 * What produced the conversation a {@link Compactor} returned.
 *
 * <pre>{@code
 * if (result.report().strategy() == CompactionStrategy.SNIP) { metrics.increment("snipped"); }
 * }</pre>
 */
public enum CompactionStrategy {
    /** Nothing: the conversation came back as it was (the same instance). */
    NONE,
    /** Older turns were replaced by a summary. */
    SUMMARY,
    /** The oldest turns were dropped and a marker left in their place. */
    SNIP
}
