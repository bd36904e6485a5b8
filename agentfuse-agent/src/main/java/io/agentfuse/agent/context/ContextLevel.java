package io.agentfuse.agent.context;

/**
 * The rungs of the context-budget ladder, from least to most full. Each rung starts at a share of
 * the context window set in {@link ContextConfig} (defaults from the seed in brackets) and runs
 * up to the next one.
 *
 * <p>This is graceful degradation rather than an on/off breaker: the window is used to the full
 * while the steps taken as it fills grow from a warning to refusing new requests.
 *
 * <pre>{@code
 * if (budget.levelOf(used).isAtLeast(ContextLevel.AUTO_COMPACT)) {
 *     compactor.compact(conversation);
 * }
 * }</pre>
 */
public enum ContextLevel {
    /** Below {@code warnAt} [70 %]: carry on. */
    NORMAL,
    /** From {@code warnAt} [70 %]: warn, suggest clearing history. */
    WARNING,
    /** From {@code autoCompactAt} [80 %]: summarise older turns. */
    AUTO_COMPACT,
    /** From {@code snipAt} [92 %]: drop the oldest turns. */
    SNIP_COMPACT,
    /** From {@code rejectAt} [95 %]: refuse new requests ("context window full"). */
    REJECT;

    /** Whether this rung is {@code other} or a fuller one. */
    public boolean isAtLeast(ContextLevel other) {
        return compareTo(other) >= 0;
    }
}
