package io.agentfuse.agent.context;

import static io.agentfuse.agent.context.ConversationFixtures.CHARACTERS;
import static io.agentfuse.agent.context.ConversationFixtures.WINDOW;
import static io.agentfuse.agent.context.ConversationFixtures.systemAndTurns;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.core.timeout.CallTimeoutException;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.core.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** A summary that fails in any way leaves the original conversation as it was, then snipping follows. */
class CompactionRollbackTest {

    private final ManualClock clock = new ManualClock();
    private final ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), WINDOW);
    private final Conversation original = systemAndTurns(11);   // 823 tokens: AUTO_COMPACT

    private Compactor compactor(Summarizer summarizer, CompactionConfig config) {
        return Compactor.builder(budget, CHARACTERS)
                .summarizer(summarizer)
                .config(config)
                .clock(clock)
                .scheduler(clock)
                .build();
    }

    private Compactor compactor(Summarizer summarizer) {
        return compactor(summarizer, CompactionConfig.defaults());
    }

    /** What snipping the untouched original gives: the result every rollback must equal. */
    private Conversation snippedOriginal() {
        return new Snipper(CHARACTERS).snip(original, budget.startOf(ContextLevel.AUTO_COMPACT)).conversation();
    }

    @Test
    void rollsBackAndSnipsWhenTheSummariserThrows() {
        IllegalStateException broken = new IllegalStateException("model unavailable");

        CompactionResult result = compactor((older, maxTokens) -> {
            throw broken;
        }).compactAndWait(original);

        assertThat(result.conversation()).isEqualTo(snippedOriginal());
        assertThat(result.report().summary()).isEqualTo(SummaryOutcome.FAILED);
        assertThat(result.report().failure()).isSameAs(broken);
        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(result.report().messagesSummarized()).isZero();
        assertThat(result.report().levelAfter()).isEqualTo(ContextLevel.WARNING);
    }

    @Test
    void rollsBackAndSnipsWhenTheSummaryStageFails() {
        IllegalStateException broken = new IllegalStateException("502 from the compact model");

        CompactionResult result = compactor((older, maxTokens) -> CompletableFuture.failedFuture(broken))
                .compactAndWait(original);

        assertThat(result.conversation()).isEqualTo(snippedOriginal());
        assertThat(result.report().failure()).isSameAs(broken);
    }

    @Test
    void rollsBackAndSnipsWhenTheSummaryTimesOut() {
        // Given a summariser that never answers
        CompletionStage<CompactionResult> stage = compactor((older, maxTokens) -> new CompletableFuture<>())
                .compact(original);

        // When just under the timeout passes, nothing has happened yet
        clock.advance(Duration.ofSeconds(60).minusMillis(1));
        assertThat(stage.toCompletableFuture()).isNotDone();

        // Then at the timeout the summary is abandoned and the original is snipped
        clock.advanceMillis(1);
        CompactionResult result = stage.toCompletableFuture().getNow(null);
        assertThat(result.conversation()).isEqualTo(snippedOriginal());
        assertThat(result.report().failure()).isInstanceOfSatisfying(CallTimeoutException.class,
                timeout -> assertThat(timeout.timeout()).isEqualTo(Duration.ofSeconds(60)));
    }

    @Test
    void rollsBackAndSnipsWhenTheSummaryIsBlank() {
        CompactionResult result = compactor((older, maxTokens) -> CompletableFuture.completedFuture(" \n\t "))
                .compactAndWait(original);

        assertThat(result.conversation()).isEqualTo(snippedOriginal());
        assertThat(result.report().failure())
                .isInstanceOf(InvalidSummaryException.class)
                .hasMessage("the summary is blank");
    }

    @Test
    void rollsBackAndSnipsWhenTheSummaryIsLongerThanWhatItReplaces() {
        CompactionResult result = compactor((older, maxTokens) -> CompletableFuture.completedFuture("y".repeat(maxTokens)))
                .compactAndWait(original);

        assertThat(result.conversation()).isEqualTo(snippedOriginal());
        assertThat(result.report().failure())
                .isInstanceOf(InvalidSummaryException.class)
                .hasMessage("the summary has 350 tokens, not fewer than the 350 tokens of the 10 messages it would replace");
    }

    @Test
    void returnsTheOriginalInstanceWhenSnippingIsNotNeededAfterTheRollback() {
        // Given snipping that only aims below SNIP_COMPACT, which an AUTO_COMPACT conversation already is
        CompactionConfig config = CompactionConfig.builder().snipBelow(ContextLevel.SNIP_COMPACT).build();

        CompactionResult result = compactor((older, maxTokens) -> CompletableFuture.completedFuture(""), config)
                .compactAndWait(original);

        assertThat(result.conversation()).isSameAs(original);
        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.NONE);
        assertThat(result.report().summary()).isEqualTo(SummaryOutcome.FAILED);
        assertThat(result.report().tokensAfter()).isEqualTo(result.report().tokensBefore());
    }

    @Test
    void ignoresASummaryThatArrivesAfterTheTimeout() {
        CompletableFuture<String> late = new CompletableFuture<>();
        CompletionStage<CompactionResult> stage = compactor((older, maxTokens) -> late).compact(original);
        clock.advance(Duration.ofSeconds(60));

        late.complete("A perfectly good summary, but too late.");

        CompactionResult result = stage.toCompletableFuture().getNow(null);
        assertThat(result.report().strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(result.conversation()).isEqualTo(snippedOriginal());
    }
}
