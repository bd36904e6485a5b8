package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Codex turn sets no output limit ("as long as the model writes"); Claude's {@code max_tokens} is
 * required. Falling back to Claude, the turn is asked for what the model writes (64 000 tokens for
 * Claude Sonnet 4.5), not the writer's 4 096 that cut a written file mid-line; a model that refuses a
 * prompt and {@code max_tokens} beyond its window (Claude 3.7 to 4.1, and the mock as they do) is asked
 * for the room the window leaves.
 */
class UnlimitedOutputCrossingScenarioTest {

    private static final String CONFIG = """
            server: { port: 0, maxBodySize: 4MB }
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            retry: { maxAttempts: 1 }
            models:
              gpt-5.5: { provider: openai, fallbacks: [claude-sonnet-4-5] }
              claude-sonnet-4-5: { provider: anthropic }
              gpt-5.5-older: { provider: openai, upstreamModel: gpt-5.5, fallbacks: [sonnet-3-7] }
              sonnet-3-7: { provider: anthropic, upstreamModel: claude-3-7-sonnet-20250219 }
            """;
    /** About ten tokens of plain prose, 45 characters. */
    private static final String SENTENCE = "The quick brown fox jumps over the lazy dog. ";

    private GatewayHarness harness;

    @BeforeEach
    void start() {
        harness = GatewayHarness.start(CONFIG);
        MockStep down = MockStep.builder().status(503).build();
        harness.mock.scriptForModel("gpt-5.5", down, down, down);
        for (String claude : new String[] {"claude-sonnet-4-5", "claude-3-7-sonnet-20250219"}) {
            harness.mock.scriptForModel(claude, MockStep.builder().text("Wrote the file.").build());
        }
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aCodexTurnFallingBackToClaudeIsAskedForWhatTheModelWrites() {
        Reply reply = harness.client.post("/v1/responses", codexTurn("gpt-5.5", "Write the parser."));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("claude-sonnet-4-5");
        assertThat(sentToClaude("claude-sonnet-4-5").getInteger("max_tokens")).isEqualTo(64_000);
    }

    @Test
    void aLongCodexConversationFallingBackToAClaudeThatStopsAtItsWindowIsStillAskedForWhatItWrites() {
        Reply reply = harness.client.post("/v1/responses", codexTurn("gpt-5.5", SENTENCE.repeat(11_500))); // ~115 000 tokens

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(sentToClaude("claude-sonnet-4-5").getInteger("max_tokens")).isEqualTo(64_000);
    }

    @Test
    void aLongConversationFallingBackToAClaudeThatRefusesToOverrunItsWindowIsAskedForTheRoomLeftAndTakenByIt() {
        Reply reply = harness.client.post("/v1/responses", codexTurn("gpt-5.5-older", SENTENCE.repeat(4_800))); // ~48 000 tokens, bounded far higher

        assertThat(reply.status()).as("the mock refuses prompt + max_tokens beyond the window, as Claude 3.7 does: "
                + reply.body()).isEqualTo(200);
        assertThat(sentToClaude("claude-3-7-sonnet-20250219").getInteger("max_tokens")).isBetween(4_097, 63_999);
    }

    private JsonObject sentToClaude(String upstreamModel) {
        List<RecordedRequest> sent = harness.mock.requestsFor(upstreamModel);
        assertThat(sent).hasSize(1);
        return sent.get(0).jsonBody().orElseThrow();
    }

    /** What Codex sends: instructions, the input as items, tools; no {@code max_output_tokens}. */
    private static JsonObject codexTurn(String model, String text) {
        return new JsonObject().put("model", model).put("instructions", "You are a coding agent.")
                .put("input", new JsonArray().add(new JsonObject().put("type", "message").put("role", "user")
                        .put("content", new JsonArray().add(new JsonObject().put("type", "input_text").put("text", text)))))
                .put("store", false);
    }
}
