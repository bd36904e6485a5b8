package io.agentfuse.agent.context;

import java.util.Optional;

/**
 * The conversation is still at {@link ContextLevel#REJECT} after compaction and snipping did all
 * they may: nothing more can be dropped without losing the system prompt, a pinned message or
 * the request itself. A gateway answers it with HTTP 413, {@code context_window_full}.
 *
 * <p>Immutable. No stack trace is filled in: this is an expected answer, not a bug.
 *
 * <pre>{@code
 * catch (ContextWindowFullException full) {
 *     respond(413, "context window full: " + full.usedTokens() + " of " + full.windowTokens() + " tokens");
 * }
 * }</pre>
 */
public class ContextWindowFullException extends RuntimeException {

    private final long usedTokens;
    private final long windowTokens;
    private final transient CompactionReport report;

    /**
     * @param usedTokens   tokens the conversation still needs, output reserve included
     * @param windowTokens the model's context window
     * @param report       what compaction tried, or null if it was not run
     */
    public ContextWindowFullException(long usedTokens, long windowTokens, CompactionReport report) {
        super("context window full: " + usedTokens + " of " + windowTokens
                + " tokens in use after compaction", null, false, false);
        this.usedTokens = usedTokens;
        this.windowTokens = windowTokens;
        this.report = report;
    }

    /** Tokens the conversation still needs, output reserve included. */
    public long usedTokens() {
        return usedTokens;
    }

    /** The model's context window. */
    public long windowTokens() {
        return windowTokens;
    }

    /** What compaction tried before giving up, when it ran. */
    public Optional<CompactionReport> report() {
        return Optional.ofNullable(report);
    }
}
