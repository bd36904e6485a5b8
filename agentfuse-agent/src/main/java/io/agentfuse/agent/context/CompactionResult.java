package io.agentfuse.agent.context;

import io.agentfuse.agent.conversation.Conversation;
import java.util.Objects;

/**
 * The conversation a {@link Compactor} run returns, with its report. Immutable.
 *
 * <pre>{@code
 * CompactionResult result = compactor.compact(conversation).toCompletableFuture().join();
 * send(result.conversation());
 * }</pre>
 *
 * @param conversation the conversation to send on: the same instance as given when
 *                     {@link CompactionReport#strategy()} is {@link CompactionStrategy#NONE}
 * @param report       what the run did
 */
public record CompactionResult(Conversation conversation, CompactionReport report) {

    /** @throws NullPointerException if an argument is null */
    public CompactionResult {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(report, "report");
    }
}
