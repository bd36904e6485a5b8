package io.agentfuse.gateway.scenario;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report that calibrates the ladder is the provider's, whatever the dialects: an OpenAI Chat
 * Completions caller served by Gemini, whose {@code promptTokenCount} says the first turn is far
 * smaller than the gateway's estimate of Gemini (cl100k × 1.15), gets its second turn sent whole.
 */
class ReportedUsageAcrossDialectsScenarioTest {

    private static final int WINDOW = 3_000;
    private static final String SYSTEM = "You plan database migrations.";
    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 4MB }
            providers:
            """ + GatewayHarness.CHAT_PROVIDERS + """
            retry: { maxAttempts: 1 }
            models:
              planner: { provider: gemini, upstreamModel: gemini-2.5-flash, contextWindow: 3000 }
            """;
    private static final TokenCounter ESTIMATE = TokenCounter.forModel("gemini-2.5-flash");

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aChatCompletionsCallersSecondTurnGoesWholeWhenGeminiReportedTheFirstAsSmall() {
        // Given a first turn estimated at 55 % of the window, which Gemini reports as 20 %
        JsonArray first = new JsonArray().add(message("system", SYSTEM));
        while (estimate(first) < 0.55 * WINDOW) {
            first.add(message(first.size() % 2 == 1 ? "user" : "assistant", "Step " + first.size() + ": "
                    + LadderConversations.words(30)));
        }
        if (!"user".equals(first.getJsonObject(first.size() - 1).getString("role"))) {
            first.add(message("user", "Go on."));
        }
        harness.mock.scriptForModel("gemini-2.5-flash", MockStep.builder().text("Noted.").inputTokens(600).build());
        Reply one = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "planner").put("messages", first));
        assertThat(one.header("x-agentfuse-context")).as(one.body()).isEqualTo("NORMAL");

        // When the second turn adds the answer and a question that the estimate puts at 82 % in all
        JsonArray second = first.copy().add(message("assistant", "Noted."));
        for (int words = 10; estimate(second) < 0.82 * WINDOW; words += 10) {
            second = first.copy().add(message("assistant", "Noted."))
                    .add(message("user", "And then? " + LadderConversations.words(words)));
        }
        Reply two = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "planner").put("messages", second));

        // Then it counts as the 600 reported plus the two new messages: NORMAL, every message sent to Gemini
        assertThat(two.status()).as(two.body()).isEqualTo(200);
        assertThat(two.header("x-agentfuse-context")).isEqualTo("NORMAL");
        JsonObject sent = LadderConversations.lastSentTo(harness.mock, "gemini-2.5-flash");
        assertThat(sent.getJsonArray("contents")).hasSize(second.size() - 1); // the system prompt goes apart
    }

    private static JsonObject message(String role, String text) {
        return new JsonObject().put("role", role).put("content", text);
    }

    private static long estimate(JsonArray messages) {
        List<Message> measured = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonObject message = messages.getJsonObject(i);
            String role = message.getString("role");
            String text = message.getString("content");
            measured.add("system".equals(role) ? Message.system(text)
                    : "user".equals(role) ? Message.user(text) : Message.assistant(text));
        }
        return ESTIMATE.countConversation(new Conversation(measured));
    }
}
