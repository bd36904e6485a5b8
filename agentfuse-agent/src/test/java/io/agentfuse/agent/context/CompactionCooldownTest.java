package io.agentfuse.agent.context;

import static io.agentfuse.agent.context.ConversationFixtures.CHARACTERS;
import static io.agentfuse.agent.context.ConversationFixtures.WINDOW;
import static io.agentfuse.agent.context.ConversationFixtures.systemAndTurns;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.core.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** After three failed summaries in a row, snipping goes straight ahead for the cooldown. */
class CompactionCooldownTest {

    private final ManualClock clock = new ManualClock();
    private final Conversation conversation = systemAndTurns(11);   // AUTO_COMPACT
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicBoolean healthy = new AtomicBoolean();
    private final Compactor compactor = Compactor.builder(ContextBudget.of(ContextConfig.defaults(), WINDOW), CHARACTERS)
            .summarizer((older, maxTokens) -> {
                calls.incrementAndGet();
                return healthy.get() ? CompletableFuture.completedFuture("Earlier turns, summarised.")
                        : CompletableFuture.failedFuture(new IllegalStateException("compact model down"));
            })
            .clock(clock)
            .scheduler(clock)
            .build();

    private SummaryOutcome compactOnce() {
        return compactor.compactAndWait(conversation).report().summary();
    }

    @Test
    void skipsTheSummariserDuringTheCooldownAfterThreeFailures() {
        // Given three failed summaries in a row
        for (int i = 0; i < 3; i++) {
            assertThat(compactOnce()).isEqualTo(SummaryOutcome.FAILED);
        }

        // When compaction runs again within five minutes
        clock.advance(Duration.ofMinutes(5).minusMillis(1));
        CompactionReport report = compactor.compactAndWait(conversation).report();

        // Then it snips straight away without asking the summariser
        assertThat(calls).hasValue(3);
        assertThat(report.summary()).isEqualTo(SummaryOutcome.SKIPPED_IN_COOLDOWN);
        assertThat(report.strategy()).isEqualTo(CompactionStrategy.SNIP);
        assertThat(report.failure()).isNull();
    }

    @Test
    void asksTheSummariserAgainOnceTheCooldownIsOver() {
        for (int i = 0; i < 3; i++) {
            compactOnce();
        }
        healthy.set(true);

        clock.advance(Duration.ofMinutes(5));

        assertThat(compactOnce()).isEqualTo(SummaryOutcome.SUCCEEDED);
        assertThat(calls).hasValue(4);
    }

    @Test
    void aFailedProbeAfterTheCooldownStartsANewCooldownAtOnce() {
        for (int i = 0; i < 3; i++) {
            compactOnce();
        }
        clock.advance(Duration.ofMinutes(5));

        assertThat(compactOnce()).isEqualTo(SummaryOutcome.FAILED);

        assertThat(compactOnce()).isEqualTo(SummaryOutcome.SKIPPED_IN_COOLDOWN);
        assertThat(calls).hasValue(4);
    }

    @Test
    void aSuccessInBetweenClearsTheFailureCount() {
        compactOnce();
        compactOnce();
        healthy.set(true);
        compactOnce();
        healthy.set(false);

        compactOnce();

        assertThat(compactOnce()).isEqualTo(SummaryOutcome.FAILED);
        assertThat(calls).hasValue(5);
    }
}
