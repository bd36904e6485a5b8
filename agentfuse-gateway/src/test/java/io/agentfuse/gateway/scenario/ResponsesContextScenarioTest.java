package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context ladder for Responses callers: the level in {@code x-agentfuse-context}, a snipped
 * conversation written back into the body's {@code input} and {@code instructions} (every other
 * field as sent), and 413 when nothing fits.
 */
class ResponsesContextScenarioTest {

    private static final String CONFIG = LadderConversations.CONFIG;
    private static final String INSTRUCTIONS = LadderConversations.SYSTEM_PROMPT;

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
    void aConversationAtSeventyPercentIsForwardedAsItIsWithAWarning() {
        JsonArray input = conversationAt(0.74);

        Reply reply = ask(input);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-context")).isEqualTo("WARNING");
        assertThat(sentTo("gpt-4o").getJsonArray("input")).isEqualTo(input);
    }

    @Test
    void aFallbackWithASmallerWindowGetsTheInputSnippedAndTheOtherFieldsAsSent() {
        harness.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        JsonArray input = conversationAt(0.60);

        Reply reply = ask(input);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-model")).isEqualTo("tiny");
        assertThat(reply.header("x-agentfuse-context")).isNotNull();
        JsonObject sent = sentTo("gpt-4o-tiny");
        assertThat(sent.getJsonArray("input").size()).isLessThan(input.size());
        assertThat(sent.getJsonArray("input").encode()).contains("[agentfuse]");
        assertThat(sent.getString("instructions")).isEqualTo(INSTRUCTIONS);
        assertThat(sent.getJsonObject("metadata")).isEqualTo(new JsonObject().put("run", "r1"));
        assertThat(sent.containsKey("messages")).isFalse();
    }

    @Test
    void anInputThatCannotFitIsRefusedWith413WithoutAnUpstreamCall() {
        JsonArray huge = new JsonArray().add(new JsonObject().put("role", "user").put("content", LadderConversations.words(LadderConversations.WINDOW + 500)));

        Reply reply = ask(huge);

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
        assertThat(harness.mock.requests()).isEmpty();
    }

    private Reply ask(JsonArray input) {
        return harness.client.post("/v1/responses", new JsonObject().put("model", "notes").put("instructions", INSTRUCTIONS)
                .put("metadata", new JsonObject().put("run", "r1")).put("input", input));
    }

    private JsonObject sentTo(String upstreamModel) {
        return LadderConversations.lastSentTo(harness.mock, upstreamModel);
    }

    /** Input items that, after the instructions, fill at least {@code share} of the window. */
    private static JsonArray conversationAt(double share) {
        return LadderConversations.turnsAt(share);
    }
}
