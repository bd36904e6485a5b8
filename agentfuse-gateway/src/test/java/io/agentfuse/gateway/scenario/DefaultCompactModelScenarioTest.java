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
 * The context ladder of a configuration that leaves {@code context:} out: its compact model is the
 * default {@code claude-haiku-4}, a name Anthropic serves no model by (it answers 404
 * {@code not_found_error}, and so does the mock). The summary is asked of Anthropic under the name it
 * serves that line's model by, {@code claude-haiku-4-5}, and answered; the gateway still names the model
 * {@code claude-haiku-4}, as the configuration does, in its breaker and its own meters, and the
 * OpenTelemetry meters name the model requested upstream, as for an entry's {@code upstreamModel}.
 */
class DefaultCompactModelScenarioTest {

    private static final String CONFIG = LadderConversations.CONFIG.replace("""
              openai: { baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-test" }
            """, """
              openai: { baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-test" }
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-test" }
            """);

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
    void givenTheDefaultCompactModelWhenAConversationReachesAutoCompactThenTheSummaryIsAnsweredByTheModelAnthropicServes() {
        // Given the default compact model, whose vendor's model answers a summary
        assertThat(CONFIG).doesNotContain("context:").doesNotContain("claude-haiku");
        harness.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("Summary: steps 1 to 9 are planned.").build());
        JsonArray messages = new JsonArray().add(new JsonObject().put("role", "system").put("content", LadderConversations.SYSTEM_PROMPT));
        LadderConversations.turnsAt(0.86).forEach(messages::add);

        // When a conversation fills 86 % of the model's window
        Reply reply = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "notes").put("messages", messages));

        // Then the summary was asked of claude-haiku-4-5 on Anthropic's endpoint, and is what went upstream
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("AUTO_COMPACT");
        assertThat(reply.header("x-agentfuse-compaction")).startsWith("action=SUMMARY; summary=SUCCEEDED");
        List<RecordedRequest> summaries = harness.mock.requestsFor("claude-haiku-4-5");
        assertThat(summaries).hasSize(1);
        assertThat(summaries.get(0).path()).isEqualTo("/v1/messages");
        assertThat(summaries.get(0).jsonBody().orElseThrow().encode()).contains("Summarise this conversation");
        assertThat(harness.mock.requestsFor("claude-haiku-4")).as("the name Anthropic answers 404 for").isEmpty();
        assertThat(LadderConversations.lastSentTo(harness.mock, "gpt-4o").encode()).contains("Summary: steps 1 to 9 are planned.");
        assertThat(harness.gateway.runtime().registry().find("model:claude-haiku-4")).isPresent();
        assertThat(harness.metricsText())
                .contains("agentfuse_compactions_total{model=\"notes\",result=\"summarized\"} 1.0")
                .contains("agentfuse_upstream_attempts_total{model=\"claude-haiku-4\",outcome=\"SUCCESS\"} 1.0")
                .contains("gen_ai_request_model=\"claude-haiku-4-5\"");
    }
}
