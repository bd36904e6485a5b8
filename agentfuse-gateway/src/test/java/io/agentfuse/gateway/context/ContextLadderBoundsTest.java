package io.agentfuse.gateway.context;

import io.agentfuse.agent.context.CompactionConfig;
import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.tokens.ImageAccounting;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.pipeline.ContextReport;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import static io.agentfuse.gateway.context.LadderRequests.conversation;
import static io.agentfuse.gateway.context.LadderRequests.message;
import static io.agentfuse.gateway.context.LadderRequests.mixedRequest;
import static io.agentfuse.gateway.context.LadderRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the ladder measures a request: what each part counts for, the bounds that settle a level
 * without counting (never below the count), and that the level is always the one counting gives.
 */
class ContextLadderBoundsTest {

    private static final ContextTarget BIG = new ContextTarget("gpt-4o", "gpt-4o", 100_000);

    private final ManualClock clock = new ManualClock();
    private final AtomicInteger summaries = new AtomicInteger();

    @Test
    void aBlockTheGatewayDoesNotModelCountsAsItsText() {
        String contract = "clause ".repeat(5_000);
        io.vertx.core.json.JsonObject body = new io.vertx.core.json.JsonObject().put("model", "claude-haiku-4")
                .put("max_tokens", 100).put("messages", new io.vertx.core.json.JsonArray().add(new io.vertx.core.json.JsonObject()
                        .put("role", "user").put("content", new io.vertx.core.json.JsonArray()
                                .add(new io.vertx.core.json.JsonObject().put("type", "document").put("source",
                                        new io.vertx.core.json.JsonObject().put("type", "text").put("data", contract))))));

        ChatRequest request = io.agentfuse.gateway.provider.Dialects.ANTHROPIC.parseRequest(body);

        assertThat(ContextLadder.tokenUpperBound(request, ImageAccounting.CEILING)).isGreaterThan(contract.length());
    }

    @Test
    void aScreenshotCountsAsAnImageNotAsTheTextOfItsData() {
        // Claude Code sends a pasted screenshot as a base64 image block: 1.3 MB of data, once counted
        // as its text about 1.1 million tokens, which sent the request 413 context_window_full.
        String png = Base64.getEncoder().encodeToString(new byte[1_000_000]);
        io.vertx.core.json.JsonObject body = new io.vertx.core.json.JsonObject().put("model", "claude-sonnet-4-5")
                .put("max_tokens", 100).put("messages", new io.vertx.core.json.JsonArray().add(new io.vertx.core.json.JsonObject()
                        .put("role", "user").put("content", new io.vertx.core.json.JsonArray()
                                .add(new io.vertx.core.json.JsonObject().put("type", "image").put("source",
                                        new io.vertx.core.json.JsonObject().put("type", "base64").put("media_type", "image/png")
                                                .put("data", png)))
                                .add(new io.vertx.core.json.JsonObject().put("type", "text").put("text", "What does this show?")))));
        ChatRequest request = io.agentfuse.gateway.provider.Dialects.ANTHROPIC.parseRequest(body);

        PreparedRequest prepared = guard(working()).prepare(request, BIG).toCompletableFuture().join();

        assertThat(prepared.request()).isSameAs(request);
        assertThat(prepared.level()).isEqualTo(ContextLevel.NORMAL);
        assertThat(ContextLadder.tokenUpperBound(request, ImageAccounting.CEILING)).isBetween((long) TokenCounter.IMAGE_TOKENS, TokenCounter.IMAGE_TOKENS + 1_000L);
    }

    /**
     * A computer-use session keeps its screenshots in the conversation. Counted at the most any image
     * may cost, twenty 1 280 × 800 screenshots came to 96 000 tokens, and a 100 000-token window
     * refused the request (Claude counts them about 27 000); by their pixels they come to 49 200.
     */
    @Test
    void screenshotsCountByTheirPixels() throws java.io.IOException {
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(1280, 800, java.awt.image.BufferedImage.TYPE_INT_RGB),
                "png", png);
        String screenshot = Base64.getEncoder().encodeToString(png.toByteArray());
        io.vertx.core.json.JsonArray messages = new io.vertx.core.json.JsonArray();
        for (int turn = 0; turn < 20; turn++) {
            messages.add(new io.vertx.core.json.JsonObject().put("role", "user").put("content", new io.vertx.core.json.JsonArray()
                    .add(new io.vertx.core.json.JsonObject().put("type", "image").put("source", new io.vertx.core.json.JsonObject()
                            .put("type", "base64").put("media_type", "image/png").put("data", screenshot)))
                    .add(new io.vertx.core.json.JsonObject().put("type", "text").put("text", "Where is the button now?"))));
            messages.add(new io.vertx.core.json.JsonObject().put("role", "assistant").put("content", "At the top right."));
        }
        ChatRequest request = io.agentfuse.gateway.provider.Dialects.ANTHROPIC.parseRequest(new io.vertx.core.json.JsonObject()
                .put("model", "claude-sonnet-4-5").put("max_tokens", 100).put("messages", messages));

        PreparedRequest prepared = guard(working()).prepare(request, BIG).toCompletableFuture().join();

        assertThat(prepared.level()).isEqualTo(ContextLevel.NORMAL);
        assertThat(prepared.request()).isSameAs(request);
        assertThat(ContextLadder.tokenUpperBound(request, ImageAccounting.CEILING)).isBetween(20 * 2_460L, 20 * 2_460L + 5_000); // its cruder bound: text at five tokens a char
    }

    @Test
    void aRequestWellWithinTheWindowGoesOutUntouched() {
        ChatRequest request = conversation(4, 50);

        PreparedRequest prepared = guard(working()).prepare(request, BIG).toCompletableFuture().join();

        assertThat(prepared.request()).isSameAs(request);
        assertThat(prepared.level()).isEqualTo(ContextLevel.NORMAL);
        assertThat(prepared.contextReport()).isEqualTo(new ContextReport("NORMAL", null));
        assertThat(summaries).hasValue(0);
    }

    @Test
    void theTokenBoundNeverUndercountsWhatTheCountersMeasure() {
        // Given conversations of every size, in a script whose words are many tokens per char
        for (int turns = 0; turns <= 40; turns += 4) {
            ChatRequest request = conversation(turns, 25);
            ChatRequest dense = Dialects.OPENAI.parseRequest(request.original().put("messages", new JsonArray()
                    .add(message("user", "\u8fc1\u79fb\u8ba1\u5212 ".repeat(turns * 10 + 1)))));

            // chars of three UTF-8 bytes that the encodings split into a token per byte: the most tokens a char makes
            ChatRequest rare = Dialects.OPENAI.parseRequest(request.original().put("messages", new JsonArray()
                    .add(message("user", "\u4dc0\ua4d0\u2e80\u31c0".repeat(turns * 10 + 1)))));

            for (ChatRequest each : new ChatRequest[] {request, dense, rare}) {
                var conversation = ConversationMapper.toConversation(each);
                for (String model : new String[] {"gpt-4o", "gpt-4", "claude-sonnet-4-5", "claude-opus-4-7"}) {
                    assertThat(ContextLadder.tokenUpperBound(each, TokenCounter.forModel(model).imageAccounting()))
                            .as(model + ", " + turns + " turns")
                            .isGreaterThanOrEqualTo(io.agentfuse.agent.tokens.TokenCounter.forModel(model)
                                    .countConversation(conversation));
                }
            }
        }
    }

    @Test
    void theCountersBoundOverTheRequestNeverUndercountsItsCount() {
        // Given requests of every kind of content: prose, code, CJK, emoji, tool calls and results, images
        Random random = new Random(14);
        for (int round = 0; round < 60; round++) {
            ChatRequest request = mixedRequest(random, 1 + random.nextInt(12));
            var conversation = ConversationMapper.toConversation(request);
            for (String model : new String[] {"gpt-4o", "gpt-4", "claude-sonnet-4-5", "claude-opus-4-7"}) {
                TokenCounter counter = TokenCounter.forModel(model);
                // When bounded before and after its messages were counted (and so remembered)
                long before = ConversationMapper.upperBound(request, counter);
                int counted = counter.countConversation(conversation);

                // Then the bound is never below the count, and the cheap char bound is above both
                assertThat(before).as(model + ", round " + round).isGreaterThanOrEqualTo(counted);
                assertThat(ConversationMapper.upperBound(request, counter)).isEqualTo(before);
                assertThat(ContextLadder.tokenUpperBound(request, counter.imageAccounting())).isGreaterThanOrEqualTo(counted);
            }
        }
    }

    @Test
    void theLevelIsTheOneCountingGivesAtEverySize() {
        // Given conversations from far below the window to beyond it
        ContextTarget target = new ContextTarget("gpt-4o", "gpt-4o", 8_000);
        ContextLadder guard = new ContextLadder(ContextConfig.defaults(), null, CompactionConfig.defaults(),
                new ManualClock(), new ManualClock());
        ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), target.contextWindow());
        for (int turns = 0; turns <= 200; turns += 5) {
            ChatRequest request = conversation(turns, 30);

            // When its level is taken by the guard's cheapest measure
            ContextLevel level = guard.levelOf(request, target);

            // Then it is the level of the full count
            int counted = TokenCounter.forModel("gpt-4o").countConversation(ConversationMapper.toConversation(request));
            assertThat(level).as(turns + " turns, " + counted + " tokens").isEqualTo(budget.levelOf(counted));
        }
    }

    @Test
    void aLongConversationFarBelowTheWindowIsNormalWithoutCompaction() {
        // Given 60 000 chars, whose four-per-char bound alone would be over 70 % of a 200 000 window
        ChatRequest request = conversation(120, 80);
        assertThat(ContextLadder.tokenUpperBound(request, ImageAccounting.CEILING)).isGreaterThan(140_000);

        // When it is prepared
        PreparedRequest prepared = guard(working()).prepare(request, new ContextTarget("gpt-4o", "gpt-4o", 200_000))
                .toCompletableFuture().join();

        // Then it goes out as it came
        assertThat(prepared.request()).isSameAs(request);
        assertThat(prepared.contextReport()).isEqualTo(new ContextReport("NORMAL", null));
        assertThat(summaries).hasValue(0);
    }

    @Test
    void aResentConversationIsSettledOnTheCallingThreadWithTheSameLevel() {
        // Given a ladder whose workers tally what they are handed, and a long conversation prepared once
        AtomicInteger handedOver = new AtomicInteger();
        Executor workers = task -> {
            handedOver.incrementAndGet();
            task.run();
        };
        ContextLadder guard = new ContextLadder(ContextConfig.defaults(), null, CompactionConfig.defaults(), clock,
                clock, workers);
        ChatRequest request = conversation(120, 80);
        ContextTarget target = new ContextTarget("gpt-4o", "gpt-4o", 200_000);
        PreparedRequest first = guard.prepare(request, target).toCompletableFuture().join();
        int afterFirst = handedOver.get();

        // When its very texts come again (as the gateway's memo of decoded values hands them out)
        PreparedRequest again = guard.prepare(request, target).toCompletableFuture().join();

        // Then it gets the same level without going to the workers
        assertThat(afterFirst).isPositive();
        assertThat(again.level()).isEqualTo(first.level()).isEqualTo(ContextLevel.NORMAL);
        assertThat(handedOver).hasValue(afterFirst);
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
