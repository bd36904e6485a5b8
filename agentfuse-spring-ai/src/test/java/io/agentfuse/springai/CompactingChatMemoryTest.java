package io.agentfuse.springai;

import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.tokens.EstimatingTokenCounter;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.ManualClock;
import io.agentfuse.springai.internal.ConversationMapping;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring AI's own chat memory kept inside a 2 000-token window by the context ladder. */
class CompactingChatMemoryTest {

    private static final String ID = "session-1";

    private final ManualClock clock = new ManualClock();
    private final AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.parse("""
            models:
              tiny: { provider: openai, contextWindow: 2000 }
              opus-4-7: { provider: anthropic, upstreamModel: claude-opus-4-7, contextWindow: 2000 }
              sonnet-4-5: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 2000 }
            """, "memory.yaml", Map.of())).manualClock(clock).build();
    private final ChatMemory store = MessageWindowChatMemory.builder().maxMessages(1000).build();

    private Compactor compactor(Summarizer summarizer) {
        return Compactor.builder(runtime.contextBudget("tiny"), EstimatingTokenCounter.standard())
                .summarizer(summarizer).clock(clock).scheduler(clock).build();
    }

    /** A system prompt and as many turns as it takes to reach {@code level}. */
    private List<Message> conversationAt(ContextLevel level, Compactor compactor) {
        List<Message> messages = new ArrayList<>(List.of(new SystemMessage("You are a careful assistant.")));
        for (int turn = 0; ; turn++) {
            messages.add(new UserMessage("question " + turn + ": " + "x".repeat(200)));
            messages.add(new AssistantMessage("answer " + turn + ": " + "y".repeat(200)));
            ContextLevel reached = compactor.levelOf(ConversationMapping.toConversation(messages));
            if (reached == level) {
                return messages;
            }
            assertThat(reached.isAtLeast(level)).as("overshot %s", level).isFalse();
        }
    }

    @Test
    void aConversationBelowTheLadderComesBackAsStored() {
        Compactor compactor = compactor((older, max) -> CompletableFuture.completedFuture("unused"));
        ChatMemory memory = CompactingChatMemory.of(store, compactor);
        List<Message> messages = conversationAt(ContextLevel.WARNING, compactor);
        memory.add(ID, messages);

        assertThat(memory.get(ID)).containsExactlyElementsOf(messages);
    }

    @Test
    void atAutoCompactOlderTurnsBecomeOneSummaryAndTheStoreKeepsIt() {
        Compactor compactor = compactor((older, max) -> CompletableFuture.completedFuture("The user asked many questions."));
        ChatMemory memory = CompactingChatMemory.of(store, compactor);
        List<Message> messages = conversationAt(ContextLevel.AUTO_COMPACT, compactor);
        memory.add(ID, messages);

        List<Message> compacted = memory.get(ID);

        assertThat(compacted.size()).isLessThan(messages.size());
        assertThat(compacted.get(0)).isSameAs(messages.get(0));
        assertThat(compacted).extracting(Message::getText).anyMatch(text -> text.contains("The user asked many questions."));
        assertThat(compacted.get(compacted.size() - 1)).isSameAs(messages.get(messages.size() - 1));
        assertThat(store.get(ID)).hasSameSizeAs(compacted);
    }

    @Test
    void aFailedSummaryIsRolledBackAndTheOldestTurnsAreSnippedInstead() {
        Compactor compactor = compactor((older, max) -> CompletableFuture.failedFuture(new IllegalStateException("summariser down")));
        ChatMemory memory = CompactingChatMemory.of(store, compactor);
        List<Message> messages = conversationAt(ContextLevel.AUTO_COMPACT, compactor);
        memory.add(ID, messages);

        List<Message> compacted = memory.get(ID);

        assertThat(compacted).doesNotContain(messages.get(1)); // the oldest turn was snipped
        assertThat(compacted.get(0)).isSameAs(messages.get(0));
        assertThat(compacted.get(compacted.size() - 1)).isSameAs(messages.get(messages.size() - 1));
        assertThat(compacted).extracting(Message::getText).noneMatch(text -> text.contains("summariser down"));
        assertThat(compactor.levelOf(ConversationMapping.toConversation(compacted)).isAtLeast(ContextLevel.AUTO_COMPACT)).isFalse();
    }

    @Test
    void aMemoryCountsAsTheModelItCallsUpstream() {
        // At WARNING (70 %) by the estimate of the earlier Claude models, past AUTO_COMPACT (80 %) by the
        // tokenizer of Claude Opus 4.7 and later, which makes up to 1.35x the tokens of a text.
        List<Message> messages = conversationAt(ContextLevel.WARNING, compactor((older, max) -> null));
        Summarizer summarizer = (older, max) -> CompletableFuture.completedFuture("The user asked many questions.");
        store.add(ID, messages);
        ChatMemory other = MessageWindowChatMemory.builder().maxMessages(1000).build();
        other.add(ID, messages);

        List<Message> newer = CompactingChatMemory.of(runtime, "opus-4-7", store, summarizer).get(ID);
        List<Message> earlier = CompactingChatMemory.of(runtime, "sonnet-4-5", other, summarizer).get(ID);

        assertThat(earlier).containsExactlyElementsOf(messages);
        assertThat(newer.size()).isLessThan(messages.size()); // summarised or snipped: past 92 % it snips
        assertThat(newer.get(0)).isSameAs(messages.get(0));
    }
}
