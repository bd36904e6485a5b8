package io.agentfuse.gateway.dialect;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.agentfuse.gateway.testing.GatewayHarness.openAiRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Chat Completions caller that sends {@code temperature} and {@code top_p} together (LangChain's
 * defaults do) is served by Claude Haiku 4.5, which refuses the two together with 400 as every Claude
 * model since Opus 4.1 does, on Anthropic and on Bedrock: the translated request keeps the temperature
 * and leaves top-p out. A top-p alone still crosses.
 */
class ClaudeSamplingTranslationTest {

    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.startWithAwsKeys(GatewayHarness.CONFIG.replace("providers:\n", "providers:\n"
                + GatewayHarness.BEDROCK_PROVIDER) + """
                  claude-on-bedrock: { provider: bedrock, upstreamModel: "us.anthropic.claude-haiku-4-5-20251001-v1:0" }
                """);
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @BeforeEach
    void forget() {
        harness.mock.reset();
    }

    @Test
    void aTemperatureAndATopPReachClaudeAsTheTemperatureAlone() {
        Reply reply = harness.client.post("/v1/chat/completions",
                openAiRequest("claude-haiku-4", false).put("temperature", 0.7).put("top_p", 1.0));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject sent = harness.mock.requests().get(0).jsonBody().orElseThrow();
        assertThat(sent.getDouble("temperature")).isEqualTo(0.7);
        assertThat(sent.containsKey("top_p")).isFalse();
    }

    @Test
    void aTopPAloneReachesClaude() {
        Reply reply = harness.client.post("/v1/chat/completions", openAiRequest("claude-haiku-4", false).put("top_p", 0.9));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(harness.mock.requests().get(0).jsonBody().orElseThrow().getDouble("top_p")).isEqualTo(0.9);
    }

    @Test
    void aTemperatureAndATopPReachClaudeOnBedrockAsTheTemperatureAlone() {
        Reply reply = harness.client.post("/v1/chat/completions",
                openAiRequest("claude-on-bedrock", false).put("temperature", 0.7).put("top_p", 1.0));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonObject inference = harness.mock.requests().get(0).jsonBody().orElseThrow().getJsonObject("inferenceConfig");
        assertThat(inference.getDouble("temperature")).isEqualTo(0.7);
        assertThat(inference.containsKey("topP")).isFalse();
    }
}
