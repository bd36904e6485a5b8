package io.agentfuse.agent.context;

import io.agentfuse.agent.conversation.Conversation;
import java.util.concurrent.CompletionStage;

/**
 * Writes a summary of older conversation turns; in the gateway, a call to a cheaper model.
 *
 * <p>It must not block the calling thread: return a stage that completes later. The
 * {@link Compactor} bounds the wait with its own timeout, checks the answer (non-blank, fewer
 * tokens than the messages it replaces) and falls back to the original conversation on any
 * failure, so an implementation may simply fail its stage when something goes wrong. Throwing
 * from this method counts as a failure too. Implementations must be thread-safe when one
 * compactor serves several sessions.
 *
 * <pre>{@code
 * Summarizer summarizer = (older, maxTokens) -> cheapModel.complete(
 *         "Summarise this conversation in at most " + maxTokens + " tokens:", older);
 * }</pre>
 */
@FunctionalInterface
public interface Summarizer {

    /**
     * Summarises {@code older}.
     *
     * @param older     the messages to be replaced, oldest first
     * @param maxTokens the summary must stay below this many tokens to be accepted
     * @return a stage completing with the summary text
     */
    CompletionStage<String> summarize(Conversation older, int maxTokens);
}
