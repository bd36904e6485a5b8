package io.agentfuse.springai;

import io.agentfuse.agent.context.CompactionResult;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextWindowFullException;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.springai.internal.ConversationMapping;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.Message;

import java.util.List;
import java.util.Objects;

/**
 * A Spring AI {@link ChatMemory} that keeps each conversation inside its model's context window with
 * the context ladder (docs/design.md §5): when a conversation is read and has reached AUTO_COMPACT, older
 * turns are summarised (the {@link Summarizer}, e.g. a call to a cheaper model); if the summary
 * fails, times out or is not smaller, the conversation is left untouched and the oldest turns are
 * snipped instead (never the system prompt, never a tool call without its result). The compacted
 * conversation replaces the stored one, so it is not compacted again next turn. A conversation still
 * at REJECT after all that throws {@link ContextWindowFullException}.
 *
 * <p>Messages that compaction keeps come back as the very same Spring AI messages. Thread-safe when
 * the memory it wraps is; two threads reading one conversation at once may both compact it.
 *
 * <pre>{@code
 * ChatMemory memory = CompactingChatMemory.of(runtime, "gpt-4o",
 *         MessageWindowChatMemory.builder().maxMessages(500).build(), summarizer);
 * }</pre>
 */
public final class CompactingChatMemory implements ChatMemory {

    private final ChatMemory memory;
    private final Compactor compactor;

    private CompactingChatMemory(ChatMemory memory, Compactor compactor) {
        this.memory = Objects.requireNonNull(memory, "memory");
        this.compactor = Objects.requireNonNull(compactor, "compactor");
    }

    /** {@code memory}, compacted by {@code compactor}. */
    public static CompactingChatMemory of(ChatMemory memory, Compactor compactor) {
        return new CompactingChatMemory(memory, compactor);
    }

    /**
     * {@code memory}, compacted to the {@code context:} ladder over {@code model}'s
     * {@code contextWindow}, counting tokens as its upstream model does
     * ({@link AgentfuseRuntime#tokenCounter}); {@code summarizer} may be
     * {@code null} to snip only.
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public static CompactingChatMemory of(AgentfuseRuntime runtime, String model, ChatMemory memory, Summarizer summarizer) {
        Compactor.Builder compactor = Compactor.builder(runtime.contextBudget(model), runtime.tokenCounter(model));
        if (summarizer != null) {
            compactor.summarizer(summarizer);
        }
        return new CompactingChatMemory(memory, compactor.build());
    }

    @Override
    public void add(String conversationId, List<Message> messages) {
        memory.add(conversationId, messages);
    }

    /**
     * The conversation, compacted first if its level calls for it.
     *
     * @throws ContextWindowFullException if it is still too large after snipping
     */
    @Override
    public List<Message> get(String conversationId) {
        List<Message> stored = memory.get(conversationId);
        Conversation conversation = ConversationMapping.toConversation(stored);
        CompactionResult result = compactor.compactAndWait(conversation);
        if (result.conversation() == conversation) {
            return stored;
        }
        List<Message> compacted = ConversationMapping.fromConversation(result.conversation(), stored);
        memory.clear(conversationId);
        memory.add(conversationId, compacted);
        return compacted;
    }

    @Override
    public void clear(String conversationId) {
        memory.clear(conversationId);
    }
}
