package io.agentfuse.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import io.agentfuse.agent.context.CompactionReport;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.ContextWindowFullException;
import io.agentfuse.agent.tokens.EstimatingTokenCounter;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A LangChain4j chat memory on the context ladder of a 1 000-token model, summarising with a real
 * LangChain4j model against the mock provider.
 */
class GuardedChatMemoryTest {

    private static final String CONFIG = """
            models:
              gpt-4o: { provider: openai, contextWindow: 1000 }
              opus-4-7: { provider: anthropic, upstreamModel: claude-opus-4-7, contextWindow: 1000 }
              sonnet-4-5: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 1000 }
            context: { keepRecentTurns: 1 }
            """;

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(CONFIG);
    private final AgentfuseLangChain4j fuse = AgentfuseLangChain4j.of(runtime, models.clock);
    private final List<CompactionReport> reports = new ArrayList<>();
    private final MessageWindowChatMemory stored = MessageWindowChatMemory.withMaxMessages(1_000);
    private final GuardedChatMemory memory = GuardedChatMemory.of(stored,
            Compactor.builder(runtime.contextBudget("gpt-4o"), EstimatingTokenCounter.standard())
                    .summarizer(ChatModelSummarizer.of(models.chatModel("gpt-4o-mini"))).build(),
            reports::add);

    @AfterEach
    void stop() {
        models.close();
    }

    /** A system message and turns of about 50 tokens each until the memory reaches {@code level}. */
    private void fillTo(ContextLevel level) {
        memory.add(SystemMessage.from("You are a careful assistant."));
        for (int turn = 0; !memory.level().isAtLeast(level); turn++) {
            memory.add(turn % 2 == 0 ? UserMessage.from("question " + turn + ": " + "words ".repeat(40))
                    : AiMessage.from("answer " + turn + ": " + "words ".repeat(40)));
        }
    }

    @Test
    void belowTheLadderTheMessagesAreReturnedAsTheyAre() {
        fillTo(ContextLevel.WARNING);
        List<ChatMessage> before = stored.messages();

        assertThat(memory.messages()).isEqualTo(before);
        assertThat(reports).isEmpty();
    }

    @Test
    void atAutoCompactOlderTurnsAreSummarisedAndTheMemoryKeepsTheSummary() {
        fillTo(ContextLevel.AUTO_COMPACT);
        List<ChatMessage> before = stored.messages();
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("They asked many questions.").build());

        List<ChatMessage> after = memory.messages();

        assertThat(reports).singleElement().extracting(CompactionReport::strategy).isEqualTo(CompactionStrategy.SUMMARY);
        assertThat(after.get(0)).isSameAs(before.get(0));
        assertThat(((UserMessage) after.get(1)).singleText()).contains("They asked many questions.");
        assertThat(after.get(after.size() - 1)).as("the recent turn, as it was").isSameAs(before.get(before.size() - 1));
        assertThat(stored.messages()).as("compacted once, for good").isEqualTo(after);
        assertThat(memory.level().isAtLeast(ContextLevel.AUTO_COMPACT)).isFalse();
    }

    @Test
    void aFailedSummaryIsRolledBackAndTheOldestTurnsSnipped() {
        fillTo(ContextLevel.AUTO_COMPACT);
        List<ChatMessage> before = stored.messages();
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(500).build());

        List<ChatMessage> after = memory.messages();

        CompactionReport report = reports.get(0);
        assertThat(report.strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(report.failureCause()).isPresent();
        assertThat(after.get(0)).as("the system message stays").isSameAs(before.get(0));
        assertThat(after).hasSizeLessThan(before.size());
        assertThat(after.get(after.size() - 1)).isSameAs(before.get(before.size() - 1));
    }

    @Test
    void aConversationThatCannotFitIsRefused() {
        memory.add(SystemMessage.from("You are a careful assistant."));
        memory.add(UserMessage.from("words ".repeat(2_000)));

        assertThatThrownBy(memory::messages).isInstanceOf(ContextWindowFullException.class);
    }

    interface Assistant {
        String chat(String message);
    }

    @Test
    void anAiServiceSendsTheCompactedConversation() {
        fillTo(ContextLevel.AUTO_COMPACT);
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("They asked many questions.").build());
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(fuse.chatModel("gpt-4o", models::chatModel))
                .chatMemory(memory)
                .build();

        assertThat(assistant.chat("And now?")).isEqualTo(MockStep.DEFAULT_TEXT);

        String sent = models.mock.requestsFor("gpt-4o").get(0).body();
        assertThat(sent).contains("They asked many questions.").doesNotContain("question 0:").contains("And now?");
    }

    @Test
    void theFacadeBuildsTheMemoryFromTheConfiguredWindow() {
        GuardedChatMemory configured = fuse.chatMemory("gpt-4o", MessageWindowChatMemory.withMaxMessages(100),
                ChatModelSummarizer.of(models.chatModel("gpt-4o-mini")));
        configured.add(UserMessage.from("words ".repeat(820)));

        assertThat(configured.level()).isEqualTo(ContextLevel.AUTO_COMPACT);
    }

    @Test
    void theFacadeCountsAsTheModelCalledUpstream() {
        // 72 % of the window by the estimate of the earlier Claude models; the tokenizer of Claude Opus
        // 4.7 and later makes up to 1.35x the tokens of a text: past AUTO_COMPACT (80 %).
        GuardedChatMemory earlier = fuse.chatMemory("sonnet-4-5", MessageWindowChatMemory.withMaxMessages(100),
                ChatModelSummarizer.of(models.chatModel("gpt-4o-mini")));
        GuardedChatMemory newer = fuse.chatMemory("opus-4-7", MessageWindowChatMemory.withMaxMessages(100),
                ChatModelSummarizer.of(models.chatModel("gpt-4o-mini")));
        UserMessage message = UserMessage.from("words ".repeat(620));
        earlier.add(message);
        newer.add(message);

        assertThat(earlier.level()).isEqualTo(ContextLevel.WARNING);
        assertThat(newer.level().isAtLeast(ContextLevel.AUTO_COMPACT)).isTrue();
    }
}
