package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionConfig;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.ContextWindowFullException;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import static io.agentfuse.gateway.context.LadderRequests.conversation;
import static io.agentfuse.gateway.context.LadderRequests.message;
import static io.agentfuse.gateway.context.LadderRequests.request;
import static io.agentfuse.gateway.context.LadderRequests.requestAtAutoCompact;
import static io.agentfuse.gateway.context.LadderRequests.words;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the ladder does at each level: a request left alone, summarised, snipped or refused, for each window of a chain. */
class ContextLadderTest {

    private static final ContextTarget BIG = new ContextTarget("gpt-4o", "gpt-4o", 100_000);
    private static final ContextTarget SMALL = new ContextTarget("gpt-4o-mini", "gpt-4o-mini", 2_000);

    private final ManualClock clock = new ManualClock();
    private final AtomicInteger summaries = new AtomicInteger();

    @Test
    void aFallbackModelWithASmallerWindowGetsTheLadderAppliedAgain() {
        // Given one request that is small for the big model and large for the small one
        ChatRequest request = conversation(20, 100);
        ContextLadder guard = guard(working());

        // When it is prepared for each
        PreparedRequest forBig = guard.prepare(request, BIG).toCompletableFuture().join();
        PreparedRequest forSmall = guard.prepare(request, SMALL).toCompletableFuture().join();

        // Then only the small model's copy is compacted
        assertThat(forBig.request()).isSameAs(request);
        assertThat(forSmall.level().isAtLeast(ContextLevel.AUTO_COMPACT)).isTrue();
        assertThat(forSmall.request().messages().size()).isLessThan(request.messages().size());
    }

    @Test
    void atAutoCompactTheOlderTurnsAreSummarisedAndTheRestOfTheBodyIsKept() {
        // Given a request between 80 % and 92 % of the small window
        ChatRequest request = requestAtAutoCompact(SMALL);

        // When it is prepared with a summariser that works
        PreparedRequest prepared = guard(working()).prepare(request, SMALL).toCompletableFuture().join();

        // Then a summary replaced the older turns, and the system prompt and other fields stay
        assertThat(prepared.level()).isEqualTo(ContextLevel.AUTO_COMPACT);
        assertThat(prepared.contextReport().level()).isEqualTo("AUTO_COMPACT");
        assertThat(prepared.contextReport().compaction()).startsWith("action=SUMMARY; summary=SUCCEEDED; tokens=");
        assertThat(summaries).hasValue(1);
        JsonObject body = prepared.request().original();
        assertThat(body.getDouble("temperature")).isEqualTo(0.3);
        assertThat(body.getJsonArray("messages").getJsonObject(0).getString("role")).isEqualTo("system");
        assertThat(body.getJsonArray("messages").encode()).contains("summary of the older turns");
        assertThat(body.getJsonArray("messages").size()).isLessThan(request.original().getJsonArray("messages").size());
    }

    @Test
    void aFailingSummaryIsRolledBackAndTheRequestIsSnippedInstead() {
        ChatRequest request = requestAtAutoCompact(SMALL);
        Summarizer failing = (older, maxTokens) -> CompletableFuture.failedFuture(new IllegalStateException("compact model down"));

        PreparedRequest prepared = guard(failing).prepare(request, SMALL).toCompletableFuture().join();

        assertThat(prepared.contextReport().level()).isEqualTo("AUTO_COMPACT");
        assertThat(prepared.contextReport().compaction()).startsWith("action=SNIP; summary=FAILED; tokens=");
        assertThat(prepared.report().failureCause()).get().extracting(Throwable::getMessage).asString()
                .contains("compact model down");
        assertThat(prepared.request().original().getJsonArray("messages").encode()).contains("[agentfuse]");
    }

    @Test
    void aSummaryThatNeverComesTimesOutAndIsRolledBack() {
        ChatRequest request = requestAtAutoCompact(SMALL);
        Summarizer hanging = (older, maxTokens) -> new CompletableFuture<>();

        CompletableFuture<PreparedRequest> prepared = guard(hanging).prepare(request, SMALL).toCompletableFuture();
        assertThat(prepared).isNotDone();
        clock.advance(Duration.ofSeconds(61));

        assertThat(prepared.join().contextReport().compaction()).contains("action=SNIP; summary=FAILED");
    }

    @Test
    void aRequestThatCannotGetBelowRejectFailsWithContextWindowFull() {
        // Given one prompt alone larger than the whole small window
        ChatRequest request = request(new JsonArray().add(message("user", words(3_000))));

        assertThatThrownBy(() -> guard(working()).prepare(request, SMALL).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ContextWindowFullException.class);
    }

    /**
     * A snipped request is written again in its own dialect. A message read from the caller goes as it
     * came; one the gateway made is written from its parts, and for Anthropic its images were held to
     * the 100 images and pages of a 200 000-token window even when the request was snipped for a model
     * of a 1M-token window, which takes 600: the request became untranslatable there.
     */
    @Test
    void aSnippedRequestIsWrittenForTheWindowItWasSnippedFor() {
        // Given an Anthropic conversation whose last turn holds 150 images
        String png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
        JsonArray messages = new JsonArray();
        for (int i = 0; i < 40; i++) {
            messages.add(message(i % 2 == 0 ? "user" : "assistant", "turn " + i + ": " + words(600)));
        }
        JsonArray screenshots = new JsonArray();
        for (int i = 0; i < 150; i++) {
            screenshots.add(new JsonObject().put("type", "image").put("source", new JsonObject()
                    .put("type", "base64").put("media_type", "image/png").put("data", png)));
        }
        messages.add(new JsonObject().put("role", "user").put("content", screenshots.add(
                new JsonObject().put("type", "text").put("text", "What changed?"))));
        ChatRequest parsed = Dialects.ANTHROPIC.parseRequest(new JsonObject().put("model", "claude-sonnet-4-5")
                .put("max_tokens", 100).put("messages", messages));
        // Messages the gateway made (no caller's origin to send as it came): written from their parts.
        ChatRequest request = new ChatRequest(parsed.dialect(), parsed.received(), parsed.model(), parsed.system(),
                parsed.messages().stream().map(m -> new ChatMessage(m.role(), m.content())).toList(), parsed.tools(),
                parsed.toolChoice(), parsed.sampling(), parsed.streamMode(), parsed.endUser(), parsed.untranslatable());
        // Most of the window reserved for the answer: the older turns fill the rest past AUTO_COMPACT.
        ContextConfig config = ContextConfig.builder().reserveOutputTokens(780_000).build();
        ContextLadder snipping = new ContextLadder(config, null, CompactionConfig.defaults(), clock, clock);

        // When it is prepared for the model of a 1M-token window
        PreparedRequest prepared = snipping.prepare(request,
                new ContextTarget("claude-sonnet-4-5-1m", "claude-sonnet-4-5", 1_000_000)).toCompletableFuture().join();

        // Then it is snipped, and its 150 images go as the caller sent them
        assertThat(prepared.request().messages().size()).isLessThan(request.messages().size());
        JsonArray sent = prepared.request().received().getJsonArray("messages");
        assertThat(sent.getJsonObject(sent.size() - 1).getJsonArray("content").size()).isEqualTo(151);
    }


    private ContextLadder guard(Summarizer summarizer) {
        return new ContextLadder(ContextConfig.defaults(), summarizer, CompactionConfig.defaults(), clock, clock);
    }

    private Summarizer working() {
        return (older, maxTokens) -> {
            summaries.incrementAndGet();
            return CompletableFuture.completedFuture("A summary of the older turns.");
        };
    }

    /** The shortest conversation that reaches AUTO_COMPACT (80–92 %) of {@code target}'s window. */
}
