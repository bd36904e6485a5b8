package io.agentfuse.gateway.scenario;

import io.agentfuse.mock.MockStep;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context ladder end to end: a real gateway in front of a mock provider, the compact model
 * being a model of the same mock.
 */
class ContextScenarioTest {

    private static final String CONFIG = LadderConversations.CONFIG + """
              compactor: { provider: openai, upstreamModel: gpt-4o-mini }
            context:
              compactModel: compactor
              keepRecentTurns: 2
            """;

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
    void aConversationAtSeventyPercentIsSentAsItIsWithAWarning() {
        JsonArray messages = conversationAt(0.74);

        Reply reply = ask(messages);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("WARNING");
        assertThat(sentTo("gpt-4o").getJsonArray("messages")).isEqualTo(messages);
    }

    @Test
    void atAutoCompactTheCompactModelSummarisesTheOlderTurnsAndTheSummaryIsWhatGoesUpstream() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().text("Summary: steps 1 to 9 are planned.").build());

        Reply reply = ask(conversationAt(0.86));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("AUTO_COMPACT");
        assertThat(reply.header("x-agentfuse-compaction")).startsWith("action=SUMMARY; summary=SUCCEEDED");
        assertThat(sentTo("gpt-4o-mini").encode()).contains("Summarise this conversation");
        assertThat(sentTo("gpt-4o").encode()).contains("Summary: steps 1 to 9 are planned.");
        assertThat(harness.metricsText())
                .contains("agentfuse_context_level_total{level=\"AUTO_COMPACT\",model=\"notes\"} 1.0")
                .contains("agentfuse_compactions_total{model=\"notes\",result=\"summarized\"} 1.0");
    }

    @Test
    void aFailingCompactModelIsRolledBackAndTheRequestIsSnippedInstead() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(500).build());
        JsonArray messages = conversationAt(0.86);

        Reply reply = ask(messages);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("AUTO_COMPACT");
        assertThat(reply.header("x-agentfuse-compaction")).startsWith("action=SNIP; summary=FAILED");
        JsonArray sent = sentTo("gpt-4o").getJsonArray("messages");
        assertThat(sent.size()).isLessThan(messages.size());
        assertThat(sent.getJsonObject(0)).isEqualTo(messages.getJsonObject(0)); // the system prompt stays
        assertThat(sent.encode()).contains("[agentfuse]");
        assertThat(harness.metricsText()).contains("agentfuse_compactions_total{model=\"notes\",result=\"rolled_back\"} 1.0");
    }

    @Test
    void aRequestThatCannotFitIsRefusedWith413ContextWindowFullWithoutAnUpstreamCall() {
        JsonArray huge = new JsonArray().add(new JsonObject().put("role", "user").put("content", LadderConversations.words(LadderConversations.WINDOW + 500)));

        Reply reply = ask(huge);

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requests()).isEmpty();
        assertThat(harness.metricsText()).contains("agentfuse_context_level_total{level=\"REJECT\",model=\"notes\"} 1.0");
    }

    @Test
    void aFallbackModelWithASmallerWindowGetsTheRequestSnippedForItsOwnWindow() {
        // Given the requested model down, and a conversation that fits it but not the fallback's window
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        JsonArray messages = conversationAt(0.60);

        // When the chain falls back
        Reply reply = ask(messages);

        // Then the fallback answered a copy snipped to fit its 1500-token window
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("tiny");
        JsonArray sent = sentTo("gpt-4o-tiny").getJsonArray("messages");
        assertThat(sent.size()).isLessThan(messages.size());
        assertThat(sent.encode()).contains("[agentfuse]");
    }

    private Reply ask(JsonArray messages) {
        return harness.client.post("/v1/chat/completions", new JsonObject().put("model", "notes").put("messages", messages));
    }

    private JsonObject sentTo(String upstreamModel) {
        return LadderConversations.lastSentTo(harness.mock, upstreamModel);
    }

    /** A system prompt and the turns that fill at least {@code share} of the window. */
    private static JsonArray conversationAt(double share) {
        JsonArray messages = new JsonArray().add(new JsonObject().put("role", "system").put("content", LadderConversations.SYSTEM_PROMPT));
        LadderConversations.turnsAt(share).forEach(messages::add);
        return messages;
    }
}
