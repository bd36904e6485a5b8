package io.agentfuse.gateway.scenario;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A long conversation's compaction against providers that refuse a {@code max_tokens} above the
 * compact model's output limit, as the mock does like the real ones: the summary of an older part of
 * some 130 000 tokens is asked with the compact model's limit (Claude Haiku 4.5: 64 000; GPT-4o mini:
 * 16 384), not with the older part's size, which Anthropic and OpenAI refuse with 400 — and the ladder
 * then snipped instead of summarising. A real gateway in front of a mock provider.
 */
class LongConversationSummaryScenarioTest {

    private static final int WINDOW = 200_000;
    private static final String CONFIG = """
            server: { port: 0 }
            providers:
              openai: { baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-test" }
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-test" }
            retry: { maxAttempts: 1 }
            models:
              agent: { provider: openai, upstreamModel: gpt-4o, contextWindow: 200000 }
            context:
              keepRecentTurns: 2
            """;

    /**
     * Words of a token each, some four chars a token as the mock counts Anthropic's prompts: the summary's
     * prompt, a transcript of the older part, stays under Claude Haiku's window by the mock's count too.
     */
    private static final String SENTENCE = "we move the rows of each table to the new store and check them. ";
    private static final int SENTENCE_TOKENS = 14;

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void theDefaultCompactModelIsAskedForAtMostTheOutputClaudeHaikuWrites() {
        // Given the default compact model, claude-haiku-4, served as Claude Haiku 4.5 (64 000 output tokens at most)
        harness = GatewayHarness.start(CONFIG);
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("Summary: the migration plan so far.").build());

        // When a conversation fills 84 % of a 200 000-token window
        Reply reply = post(conversationAt(0.84));

        // Then the summary was asked with max_tokens 64 000, answered, and sent in place of the older turns
        assertSummarised(reply, "claude-haiku-4-5", "max_tokens", 64_000);
    }

    @Test
    void aCompactModelOfOpenAiIsAskedForAtMostTheOutputGpt4oMiniWrites() {
        // Given gpt-4o-mini as compact model (16 384 output tokens at most)
        harness = GatewayHarness.start(CONFIG.replace("keepRecentTurns: 2", "keepRecentTurns: 2\n  compactModel: gpt-4o-mini"));
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("Summary: the migration plan so far.").build());

        Reply reply = post(conversationAt(0.84));

        assertSummarised(reply, "gpt-4o-mini", "max_tokens", 16_384);
    }

    @Test
    void aCompactModelWithAFallbackIsAskedForAtMostWhatEveryStepOfItsChainWrites() {
        // Given a compact model of 32 768 output tokens whose fallback writes 16 384
        harness = GatewayHarness.start(CONFIG
                .replace("  agent:", "  compactor: { provider: openai, upstreamModel: gpt-4.1, fallbacks: [gpt-4o-mini] }\n  agent:")
                .replace("keepRecentTurns: 2", "keepRecentTurns: 2\n  compactModel: compactor"));
        harness.mock.scriptForModel("gpt-4.1", MockStep.builder().text("Summary: the migration plan so far.").build());

        Reply reply = post(conversationAt(0.84));

        // Then it is asked within the fallback's limit too: the fallback may be the one that writes it
        assertSummarised(reply, "gpt-4.1", "max_tokens", 16_384);
    }

    private void assertSummarised(Reply reply, String compactModel, String limitField, int limit) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("AUTO_COMPACT");
        assertThat(reply.header("x-agentfuse-compaction")).startsWith("action=SUMMARY; summary=SUCCEEDED");
        List<RecordedRequest> summaries = harness.mock.requestsFor(compactModel);
        assertThat(summaries).hasSize(1);
        JsonObject summaryRequest = summaries.get(0).jsonBody().orElseThrow();
        assertThat(summaryRequest.getInteger(limitField)).as(limitField + " of " + summaryRequest.fieldNames()).isEqualTo(limit);
        assertThat(summaryRequest.encode()).contains("in at most " + limit + " tokens");
        assertThat(LadderConversations.lastSentTo(harness.mock, "gpt-4o").encode()).contains("Summary: the migration plan so far.");
    }

    private Reply post(JsonArray messages) {
        return harness.client.post("/v1/chat/completions", new JsonObject().put("model", "agent").put("messages", messages));
    }

    /** Twenty turns and a last question after a system prompt, filling about {@code share} of {@link #WINDOW}: at auto-compact. */
    private static JsonArray conversationAt(double share) {
        TokenCounter counter = TokenCounter.forModel("gpt-4o");
        List<Message> measured = new ArrayList<>();
        measured.add(Message.system(LadderConversations.SYSTEM_PROMPT));
        JsonArray messages = new JsonArray().add(new JsonObject().put("role", "system").put("content", LadderConversations.SYSTEM_PROMPT));
        int turns = 20;
        int sentencesPerTurn = (int) (share * WINDOW / turns / SENTENCE_TOKENS);
        for (int turn = 1; turn <= turns; turn++) {
            boolean user = turn % 2 == 1;
            String text = "Step " + turn + ": " + SENTENCE.repeat(sentencesPerTurn);
            measured.add(user ? Message.user(text) : Message.assistant(text));
            messages.add(new JsonObject().put("role", user ? "user" : "assistant").put("content", text));
        }
        messages.add(new JsonObject().put("role", "user").put("content", "Go on."));
        measured.add(Message.user("Go on."));
        int tokens = counter.countConversation(new Conversation(measured));
        assertThat(tokens).as("tokens of the conversation").isBetween((int) (0.80 * WINDOW), (int) (0.92 * WINDOW));
        return messages;
    }
}
