package io.agentfuse.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import io.agentfuse.agent.context.CompactionReport;
import io.agentfuse.agent.context.CompactionResult;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.ContextWindowFullException;
import io.agentfuse.agent.conversation.Conversation;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A LangChain4j {@link ChatMemory} kept inside the model's context window by agentfuse's context
 * ladder (docs/design.md §5). Messages are stored in the memory it wraps; each time they are read (an AI
 * service reads them before every model call) the conversation is measured, and from
 * AUTO_COMPACT up the {@link Compactor} shrinks it: older turns summarised, or, if the summary
 * fails, times out or is not smaller, the original restored untouched and the oldest turns
 * snipped instead (never the system message, never a tool call without its result). The
 * compacted conversation replaces the wrapped memory's contents, so the work is done once. If it
 * is still at REJECT, reading throws {@link ContextWindowFullException}.
 *
 * <p>Reading may wait for the summary (bounded by the compactor's {@code summaryTimeout}): do not
 * read it on an event loop. Thread-safe: reads and writes are serialised, so two threads never
 * compact the same memory at once and no message added meanwhile is lost by a compaction.
 *
 * <pre>{@code
 * ChatMemory memory = fuse.chatMemory("gpt-4o", MessageWindowChatMemory.withMaxMessages(500),
 *         ChatModelSummarizer.of(cheapModel));
 * }</pre>
 */
public final class GuardedChatMemory implements ChatMemory {

    private final ChatMemory delegate;
    private final Compactor compactor;
    private final Consumer<CompactionReport> onCompaction;

    private GuardedChatMemory(ChatMemory delegate, Compactor compactor, Consumer<CompactionReport> onCompaction) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.compactor = Objects.requireNonNull(compactor, "compactor");
        this.onCompaction = onCompaction;
    }

    /** {@code delegate}, kept within the window by {@code compactor}. */
    public static GuardedChatMemory of(ChatMemory delegate, Compactor compactor) {
        return new GuardedChatMemory(delegate, compactor, null);
    }

    /** Like {@link #of(ChatMemory, Compactor)}, handing every compaction's report to {@code onCompaction}. */
    public static GuardedChatMemory of(ChatMemory delegate, Compactor compactor, Consumer<CompactionReport> onCompaction) {
        return new GuardedChatMemory(delegate, compactor, Objects.requireNonNull(onCompaction, "onCompaction"));
    }

    @Override
    public Object id() {
        return delegate.id();
    }

    @Override
    public synchronized void add(ChatMessage message) {
        delegate.add(message);
    }

    /**
     * The messages, compacted first if the ladder calls for it.
     *
     * @throws ContextWindowFullException if they are still at REJECT after compaction and snipping
     */
    @Override
    public synchronized List<ChatMessage> messages() {
        List<ChatMessage> messages = delegate.messages();
        Conversation conversation = LangChain4jConversations.toConversation(messages);
        if (!compactor.levelOf(conversation).isAtLeast(ContextLevel.AUTO_COMPACT)) {
            return messages;
        }
        CompactionResult result = compactor.compactAndWait(conversation);
        if (onCompaction != null) {
            onCompaction.accept(result.report());
        }
        if (result.report().strategy() == CompactionStrategy.NONE) {
            return messages;
        }
        List<ChatMessage> compacted = LangChain4jConversations.toMessages(result.conversation(), messages);
        delegate.set(compacted);
        return compacted;
    }

    @Override
    public synchronized void clear() {
        delegate.clear();
    }

    /** The ladder level of the messages now, without compacting them. */
    public ContextLevel level() {
        return compactor.levelOf(LangChain4jConversations.toConversation(delegate.messages()));
    }
}
