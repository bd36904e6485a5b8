package io.agentfuse.agent.context;

import java.util.Objects;
import java.util.Optional;

/**
 * What one {@link Compactor} run did and why, for logs, metrics and response headers.
 * Immutable.
 *
 * <pre>{@code
 * CompactionReport report = compactor.compact(conversation).toCompletableFuture().join().report();
 * log.info("{} -> {} via {} ({} -> {} tokens)", report.levelBefore(), report.levelAfter(),
 *         report.strategy(), report.tokensBefore(), report.tokensAfter());
 * }</pre>
 *
 * @param levelBefore        the ladder level of the conversation given
 * @param levelAfter         the ladder level of the conversation returned
 * @param tokensBefore       tokens of the conversation given
 * @param tokensAfter        tokens of the conversation returned
 * @param strategy           what produced the conversation returned
 * @param summary            what happened to the summarising step
 * @param failure            why the summary was rolled back; null unless {@code summary} is FAILED
 * @param messagesSummarized messages a summary replaced
 * @param messagesDropped    messages snipping dropped
 */
public record CompactionReport(ContextLevel levelBefore, ContextLevel levelAfter,
                               long tokensBefore, long tokensAfter,
                               CompactionStrategy strategy, SummaryOutcome summary, Throwable failure,
                               int messagesSummarized, int messagesDropped) {

    /** @throws NullPointerException if a level, the strategy or the summary outcome is null */
    public CompactionReport {
        Objects.requireNonNull(levelBefore, "levelBefore");
        Objects.requireNonNull(levelAfter, "levelAfter");
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(summary, "summary");
    }

    /** Why the summary was rolled back, when it was. */
    public Optional<Throwable> failureCause() {
        return Optional.ofNullable(failure);
    }
}
