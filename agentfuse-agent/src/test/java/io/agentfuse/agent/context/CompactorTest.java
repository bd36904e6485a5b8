package io.agentfuse.agent.context;

import static io.agentfuse.agent.context.ConversationFixtures.CHARACTERS;
import static io.agentfuse.agent.context.ConversationFixtures.WINDOW;
import static io.agentfuse.agent.context.ConversationFixtures.body;
import static io.agentfuse.agent.context.ConversationFixtures.systemAndTurns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.core.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CompactorTest {

    private final ManualClock clock = new ManualClock();
    private final ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), WINDOW);
    private final List<Conversation> summarised = new ArrayList<>();

    private Compactor compactor(Summarizer summarizer) {
        return Compactor.builder(budget, CHARACTERS).summarizer(summarizer).clock(clock).scheduler(clock).build();
    }

    private Summarizer answering(String summary) {
        return (older, maxTokens) -> {
            summarised.add(older);
            return CompletableFuture.completedFuture(summary);
        };
    }

    @Test
    void returnsTheSameConversationBelowTheAutoCompactThreshold() {
        Conversation conversation = systemAndTurns(10);   // 753 tokens: WARNING

        CompactionResult result = compactor(answering("unused")).compactAndWait(conversation);

        assertThat(result.conversation()).isSameAs(conversation);
        assertThat(result.report()).isEqualTo(new CompactionReport(ContextLevel.WARNING, ContextLevel.WARNING,
                753, 753, CompactionStrategy.NONE, SummaryOutcome.NOT_ATTEMPTED, null, 0, 0));
        assertThat(summarised).isEmpty();
    }

    @Test
    void summarisesAllButTheSystemPromptAndTheLastSixTurns() {
        Conversation conversation = systemAndTurns(11);   // 823 tokens: AUTO_COMPACT

        CompactionResult result = compactor(answering("The user worked through five warm-up questions."))
                .compactAndWait(conversation);

        List<Message> messages = result.conversation().messages();
        assertThat(summarised).singleElement().isEqualTo(new Conversation(conversation.messages().subList(1, 11)));
        assertThat(messages.get(0)).isSameAs(conversation.get(0));
        assertThat(messages.get(1).role()).isEqualTo(Role.USER);
        assertThat(messages.get(1).text()).endsWith("The user worked through five warm-up questions.");
        assertThat(messages.subList(2, messages.size())).isEqualTo(conversation.messages().subList(11, 23));
        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.SUMMARY);
        assertThat(result.report().summary()).isEqualTo(SummaryOutcome.SUCCEEDED);
        assertThat(result.report().messagesSummarized()).isEqualTo(10);
        assertThat(result.report().tokensAfter()).isEqualTo(CHARACTERS.countConversation(result.conversation()));
        assertThat(result.report().levelAfter()).isEqualTo(ContextLevel.NORMAL);
    }

    @Test
    void cancelsTheSummaryTimeoutOnceTheSummaryArrives() {
        compactor(answering("Earlier turns, summarised.")).compactAndWait(systemAndTurns(11));

        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void keepsPinnedMessagesOutOfTheSummary() {
        List<Message> messages = new ArrayList<>(systemAndTurns(11).messages());
        Message pinned = messages.get(3).pin();
        messages.set(3, pinned);

        CompactionResult result = compactor(answering("Earlier turns, summarised."))
                .compactAndWait(new Conversation(messages));

        assertThat(summarised.get(0).messages()).doesNotContain(pinned);
        assertThat(result.conversation().messages()).contains(pinned);
        assertThat(result.report().messagesSummarized()).isEqualTo(9);
    }

    @Test
    void snipsWithoutAskingTheSummariserAtTheSnipLevel() {
        Conversation conversation = systemAndTurns(13);   // 963 tokens: REJECT before snipping

        CompactionResult result = compactor(answering("unused")).compactAndWait(conversation);

        assertThat(summarised).isEmpty();
        assertThat(result.report().levelBefore()).isEqualTo(ContextLevel.REJECT);
        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(result.report().tokensAfter()).isLessThan(budget.startOf(ContextLevel.AUTO_COMPACT));
        assertThat(result.conversation().get(0)).isSameAs(conversation.get(0));
        assertThat(result.conversation().get(1)).isEqualTo(Snipper.marker(result.report().messagesDropped()));
    }

    @Test
    void snipsWhenNothingIsOldEnoughToSummariseWithoutCountingAFailure() {
        // Given one long turn: nothing lies before the last six turns
        List<Message> messages = new ArrayList<>();
        messages.add(Message.system(body(50)));
        messages.add(Message.user(body(30)));
        for (int i = 0; i < 11; i++) {
            messages.add(Message.assistant(body(70)));
        }
        Conversation conversation = new Conversation(messages);   // 3 + 50 + 30 + 770 = 853 tokens

        CompactionResult result = compactor(answering("unused")).compactAndWait(conversation);

        assertThat(summarised).isEmpty();
        assertThat(result.report().summary()).isEqualTo(SummaryOutcome.NOT_ATTEMPTED);
        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(result.report().levelAfter()).isEqualTo(ContextLevel.WARNING);
    }

    @Test
    void snipsAtAutoCompactWhenNoSummariserIsConfigured() {
        Compactor compactor = Compactor.builder(budget, CHARACTERS).clock(clock).scheduler(clock).build();

        CompactionResult result = compactor.compactAndWait(systemAndTurns(11));

        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(result.report().summary()).isEqualTo(SummaryOutcome.NOT_ATTEMPTED);
    }

    @Test
    void failsWithContextWindowFullWhenTheRequestItselfDoesNotFit() {
        // Given a system prompt and a single prompt that fills 96 % of the window
        Conversation conversation = Conversation.of(Message.system(body(50)), Message.user(body(907)));

        // Then the stage fails with the exception itself, carrying the sizes and the report
        AtomicReference<Throwable> failure = new AtomicReference<>();
        compactor(answering("unused")).compact(conversation).whenComplete((result, error) -> failure.set(error));

        assertThat(failure.get()).isInstanceOfSatisfying(ContextWindowFullException.class, full -> {
            assertThat(full.usedTokens()).isEqualTo(960);
            assertThat(full.windowTokens()).isEqualTo(WINDOW);
            assertThat(full.report()).hasValueSatisfying(report -> {
                assertThat(report.levelAfter()).isEqualTo(ContextLevel.REJECT);
                assertThat(report.strategy()).isEqualTo(CompactionStrategy.NONE);
            });
        });
    }

    @Test
    void compactAndWaitThrowsContextWindowFullUnwrapped() {
        Conversation conversation = Conversation.of(Message.system(body(50)), Message.user(body(907)));

        assertThatThrownBy(() -> compactor(answering("unused")).compactAndWait(conversation))
                .isInstanceOf(ContextWindowFullException.class)
                .hasMessage("context window full: 960 of 1000 tokens in use after compaction");
    }

    @Test
    void countsTheOutputReserveInTheLevelAndInTheFullWindowError() {
        ContextBudget reserved = ContextBudget.of(ContextConfig.builder().reserveOutputTokens(200).build(), WINDOW);
        Compactor compactor = Compactor.builder(reserved, CHARACTERS).clock(clock).scheduler(clock).build();
        Conversation conversation = Conversation.of(Message.system(body(50)), Message.user(body(707)));

        assertThat(compactor.levelOf(conversation)).isEqualTo(ContextLevel.REJECT);
        assertThatThrownBy(() -> compactor.compactAndWait(conversation))
                .isInstanceOfSatisfying(ContextWindowFullException.class,
                        full -> assertThat(full.usedTokens()).isEqualTo(960));
    }
}
