package io.agentfuse.agent.context;

import static io.agentfuse.agent.context.ConversationFixtures.CHARACTERS;
import static io.agentfuse.agent.context.ConversationFixtures.WINDOW;
import static io.agentfuse.agent.context.ConversationFixtures.systemAndTurns;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.ManualClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A compactor measuring with another counter (one that knows a conversation's tokens better, such as
 * the provider's report of its earlier part) works to that counter's count, and keeps the one
 * summary failure count of the compactor it was made from.
 */
class CompactorMeasuringWithTest {

    /** A tenth more than {@link ConversationFixtures#CHARACTERS}: what a provider reported above the estimate. */
    private static final TokenCounter TENTH_MORE = text -> (int) Math.ceil(text.length() * 1.1);

    private final ManualClock clock = new ManualClock();
    private final Conversation conversation = systemAndTurns(10);   // 753 by CHARACTERS: WARNING
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicBoolean healthy = new AtomicBoolean(true);
    private final Compactor compactor = Compactor.builder(ContextBudget.of(ContextConfig.defaults(), WINDOW), CHARACTERS)
            .summarizer((older, maxTokens) -> {
                calls.incrementAndGet();
                return healthy.get() ? CompletableFuture.completedFuture("Earlier turns.")
                        : CompletableFuture.failedFuture(new IllegalStateException("compact model down"));
            })
            .clock(clock)
            .scheduler(clock)
            .build();

    @Test
    void compactsByTheCountOfTheCounterItMeasuresWith() {
        assertThat(compactor.compactAndWait(conversation).report().strategy()).isEqualTo(CompactionStrategy.NONE);

        CompactionReport report = compactor.measuringWith(TENTH_MORE).compactAndWait(conversation).report();

        assertThat(report.levelBefore()).isEqualTo(ContextLevel.AUTO_COMPACT);
        assertThat(report.tokensBefore()).isEqualTo(TENTH_MORE.countConversation(conversation));
        assertThat(report.strategy()).isEqualTo(CompactionStrategy.SUMMARY);
        assertThat(compactor.measuringWith(TENTH_MORE).levelOf(conversation)).isEqualTo(ContextLevel.AUTO_COMPACT);
    }

    @Test
    void sharesTheSummaryFailuresOfTheCompactorItWasMadeFrom() {
        healthy.set(false);
        for (int i = 0; i < 3; i++) {
            assertThat(compactor.measuringWith(TENTH_MORE).compactAndWait(conversation).report().summary())
                    .isEqualTo(SummaryOutcome.FAILED);
        }

        CompactionReport report = compactor.compactAndWait(systemAndTurns(11)).report(); // AUTO_COMPACT by its own count

        assertThat(calls).hasValue(3);
        assertThat(report.summary()).isEqualTo(SummaryOutcome.SKIPPED_IN_COOLDOWN);
    }
}
