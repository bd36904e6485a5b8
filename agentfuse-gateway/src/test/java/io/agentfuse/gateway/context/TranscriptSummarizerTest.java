package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A summary is asked for at most the tokens it may have and still be smaller than what it replaces,
 * and never more than the compact model writes: a provider refuses a larger {@code max_tokens} with 400.
 */
class TranscriptSummarizerTest {

    private final AtomicInteger sentLimit = new AtomicInteger();
    private final AtomicReference<String> sentPrompt = new AtomicReference<>();
    private final Conversation older = new Conversation(List.of(Message.user("Plan the migration."),
            Message.assistant("Backfill the replica first.")));

    @Test
    void aSummaryOfMoreThanTheModelWritesIsAskedForAtTheModelsLimit() {
        summarizer(64_000).summarize(older, 84_300).toCompletableFuture().join();

        assertThat(sentLimit).hasValue(64_000);
        assertThat(sentPrompt.get()).startsWith("Summarise this conversation in at most 64000 tokens.");
    }

    @Test
    void aSummaryWithinTheModelsLimitIsAskedForAsTheLadderSays() {
        summarizer(64_000).summarize(older, 1_200).toCompletableFuture().join();

        assertThat(sentLimit).hasValue(1_200);
        assertThat(sentPrompt.get()).startsWith("Summarise this conversation in at most 1200 tokens.");
    }

    private TranscriptSummarizer summarizer(int outputLimit) {
        return new TranscriptSummarizer((system, prompt, maxTokens) -> {
            sentLimit.set(maxTokens);
            sentPrompt.set(prompt);
            return CompletableFuture.completedFuture("Summary.");
        }, () -> outputLimit);
    }
}
