package io.agentfuse.gateway.scenario;

import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context ladder counts a conversation's earlier part by the input tokens the provider reported
 * for it, and estimates only what came since: Claude's count is an estimate (cl100k × 1.15) that is
 * 10 to 50 % off either way. An agent's second turn is its first, the answer and one more message;
 * the first turn's report decides whether the second fits, whatever the estimate says.
 */
class ReportedUsageCalibrationScenarioTest {

    private static final int WINDOW = 3_000;
    private static final String SYSTEM = "You plan database migrations.";
    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 4MB }
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-test" }
            retry: { maxAttempts: 1 }
            models:
              planner: { provider: anthropic, upstreamModel: claude-sonnet-4-5, contextWindow: 3000 }
            """;
    /** How the gateway estimates the model's tokens. */
    private static final TokenCounter ESTIMATE = TokenCounter.forModel("claude-sonnet-4-5");

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
    void aSecondTurnTheEstimateWouldCompactGoesWholeWhenTheFirstTurnsReportSaysItFits() {
        // Given a first turn estimated at 55 % of the window, which the provider reports as 20 %
        JsonArray first = turnsAt(new JsonArray(), 0.55);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("Noted.").inputTokens(600).build());
        Reply one = harness.client.post("/v1/messages", body(first), Map.of());
        assertThat(one.header("x-agentfuse-context")).as(one.body()).isEqualTo("NORMAL");

        // When the second turn adds the answer and a message that the estimate puts at 82 % in all
        JsonArray second = withQuestionAt(first.copy().add(message("assistant", "Noted.")), 0.82);
        Reply two = harness.client.post("/v1/messages", body(second), Map.of());

        // Then it counts as 600 plus the estimate of the two messages: NORMAL, sent whole
        assertThat(two.status()).as(two.body()).isEqualTo(200);
        assertThat(two.header("x-agentfuse-context")).isEqualTo("NORMAL");
        assertThat(two.header("x-agentfuse-compaction")).isNull();
        assertThat(lastSent().getJsonArray("messages")).isEqualTo(second);

        // And the same turn under another system prompt is not the reported prompt: estimated, and compacted
        Reply other = harness.client.post("/v1/messages", body(second).put("system", SYSTEM + " Be brief."), Map.of());
        assertThat(other.header("x-agentfuse-context")).as(other.body()).isEqualTo("AUTO_COMPACT");
        assertThat(lastSent().getJsonArray("messages").size()).isLessThan(second.size());
    }

    @Test
    void aSecondTurnTheEstimatePutsAtNormalIsCompactedWhenTheFirstTurnsReportSaysItIsFull() {
        // Given a first turn estimated at 40 %, which the provider reports as 2 500 tokens (83 %), most of them from its cache
        JsonArray first = turnsAt(new JsonArray(), 0.40);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("Noted.").inputTokens(2_500)
                .cacheReadTokens(1_800).cacheWriteTokens(200).build());
        Reply one = harness.client.post("/v1/messages", body(first), Map.of());
        assertThat(one.header("x-agentfuse-context")).as(one.body()).isEqualTo("NORMAL");

        // When the second turn adds the answer and a short question: 41 % by the estimate
        JsonArray second = first.copy().add(message("assistant", "Noted.")).add(message("user", "And the index?"));
        assertThat(estimate(second)).isLessThan((long) (0.70 * WINDOW));
        Reply two = harness.client.post("/v1/messages", body(second), Map.of());

        // Then it counts as the 2 500 reported (input, cache reads and writes) and more: compacted before it is sent
        assertThat(two.status()).as(two.body()).isEqualTo(200);
        assertThat(two.header("x-agentfuse-context")).isEqualTo("AUTO_COMPACT");
        assertThat(two.header("x-agentfuse-compaction")).contains("tokens=2515->"); // summarised by the default compact model
        JsonArray sent = lastSent().getJsonArray("messages");
        assertThat(sent.size()).isLessThan(second.size());
        assertThat(sent.getJsonObject(sent.size() - 1)).isEqualTo(message("user", "And the index?"));
    }

    @Test
    void aStreamedAnswersReportCountsForTheNextTurnToo() {
        // Given a first turn at 55 %, streamed, whose report (in its message_start) says 20 %
        JsonArray first = turnsAt(new JsonArray(), 0.55);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().chunks("Not", "ed.").inputTokens(600).build());
        StreamReply one = harness.client.stream("/v1/messages", body(first).put("stream", true), Map.of());
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.data()).contains("message_stop");

        // When the second turn is at 82 % by the estimate
        JsonArray second = withQuestionAt(first.copy().add(message("assistant", "Noted.")), 0.82);
        Reply two = harness.client.post("/v1/messages", body(second), Map.of());

        // Then the stream's report made its count: sent whole
        assertThat(two.header("x-agentfuse-context")).as(two.body()).isEqualTo("NORMAL");
        assertThat(lastSent().getJsonArray("messages")).isEqualTo(second);
    }

    /**
     * A server that tells only the tokens it evaluated, without the prefix its own cache held (as local
     * servers may), reports a fraction of the prompt: kept, it would let the next turns through uncounted.
     */
    @Test
    void aReportTooSmallToBeOfTheWholePromptIsNotCountedBy() {
        // Given a first turn at 55 % by the estimate, of some 6 000 chars, which the provider reports as 5 tokens
        JsonArray first = turnsAt(new JsonArray(), 0.55);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("Noted.").inputTokens(5).build());
        harness.client.post("/v1/messages", body(first), Map.of());

        // When the second turn is at 82 % by the estimate
        JsonArray second = withQuestionAt(first.copy().add(message("assistant", "Noted.")), 0.82);
        Reply two = harness.client.post("/v1/messages", body(second), Map.of());

        // Then it is estimated, as if nothing had been reported: compacted
        assertThat(two.header("x-agentfuse-context")).as(two.body()).isEqualTo("AUTO_COMPACT");
        assertThat(lastSent().getJsonArray("messages").size()).isLessThan(second.size());
    }

    /** An upstream that lies (or a proxy that makes usage up) costs the conversation nothing: no provider reads past its window. */
    @Test
    void aReportAboveTheWindowIsNotCountedBy() {
        JsonArray first = turnsAt(new JsonArray(), 0.40);
        harness.mock.scriptForModel("claude-sonnet-4-5", MockStep.builder().text("Noted.").inputTokens(5_000).build()); // window 3 000
        harness.client.post("/v1/messages", body(first), Map.of());

        JsonArray second = first.copy().add(message("assistant", "Noted.")).add(message("user", "And the index?"));
        Reply two = harness.client.post("/v1/messages", body(second), Map.of());

        assertThat(two.status()).as(two.body()).isEqualTo(200);
        assertThat(two.header("x-agentfuse-context")).isEqualTo("NORMAL");
        assertThat(lastSent().getJsonArray("messages")).isEqualTo(second);
    }

    private JsonObject lastSent() {
        return LadderConversations.lastSentTo(harness.mock, "claude-sonnet-4-5");
    }

    private static JsonObject body(JsonArray messages) {
        return new JsonObject().put("model", "planner").put("max_tokens", 50).put("system", SYSTEM).put("messages", messages);
    }

    private static JsonObject message(String role, String text) {
        return new JsonObject().put("role", role).put("content", text);
    }

    /**
     * {@code messages} with user and assistant messages added in turn, ending with a user message, until
     * the gateway's estimate of the request reaches {@code share} of the window.
     */
    private static JsonArray turnsAt(JsonArray messages, double share) {
        JsonArray turns = messages.copy();
        for (int turn = turns.size() + 1; ; turn++) {
            boolean user = turns.isEmpty() || "assistant".equals(turns.getJsonObject(turns.size() - 1).getString("role"));
            turns.add(message(user ? "user" : "assistant", "Step " + turn + ": " + LadderConversations.words(30)));
            if (user && estimate(turns) >= share * WINDOW) {
                return turns;
            }
        }
    }

    /** {@code messages} and one user message, long enough for the estimate to reach {@code share} of the window. */
    private static JsonArray withQuestionAt(JsonArray messages, double share) {
        for (int words = 10; ; words += 10) {
            JsonArray asked = messages.copy().add(message("user", "And then? " + LadderConversations.words(words)));
            if (estimate(asked) >= share * WINDOW) {
                return asked;
            }
        }
    }

    private static long estimate(JsonArray messages) {
        List<Message> measured = new ArrayList<>();
        measured.add(Message.system(SYSTEM));
        for (int i = 0; i < messages.size(); i++) {
            JsonObject message = messages.getJsonObject(i);
            String text = message.getString("content");
            measured.add("user".equals(message.getString("role")) ? Message.user(text) : Message.assistant(text));
        }
        return ESTIMATE.countConversation(new Conversation(measured));
    }
}
