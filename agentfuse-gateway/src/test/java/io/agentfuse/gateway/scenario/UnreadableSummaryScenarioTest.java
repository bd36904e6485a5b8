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
 * The compaction summariser's model call ({@code GuardedModelClient}) reads its answer within the
 * attempt: an answer its dialect cannot read is that step's failed attempt, counted by its breaker,
 * and the compact model's fallback writes the summary — as a caller's answer that cannot be
 * translated is fallen back from. A real gateway in front of a mock provider.
 */
class UnreadableSummaryScenarioTest {

    private static final String CONFIG = LadderConversations.CONFIG + """
              compactor: { provider: openai, upstreamModel: gpt-4o-mini, fallbacks: [spare] }
              spare: { provider: openai, upstreamModel: gpt-4o-spare }
            context:
              compactModel: compactor
              keepRecentTurns: 2
            """;

    /**
     * A {@code chat.completion} of the shape the gateway checks on arrival, whose {@code created} is
     * not the number of seconds the dialect reads: relayed as it is to an OpenAI caller, but not
     * readable into an answer.
     */
    private static final String UNREADABLE = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":\"yesterday\","
            + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Summary from a broken model.\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}";

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
    void anUnreadableSummaryIsTheCompactModelsFailedAttemptAndItsFallbackWritesTheSummary() {
        harness.mock.scriptForModel("gpt-4o-mini", MockStep.builder().body(UNREADABLE).build());
        harness.mock.scriptForModel("gpt-4o-spare", MockStep.builder().text("Summary: steps 1 to 9 are planned.").build());
        JsonArray messages = new JsonArray().add(new JsonObject().put("role", "system").put("content", LadderConversations.SYSTEM_PROMPT));
        LadderConversations.turnsAt(0.86).forEach(messages::add);

        Reply reply = harness.client.post("/v1/chat/completions", new JsonObject().put("model", "notes").put("messages", messages));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("x-agentfuse-compaction")).startsWith("action=SUMMARY; summary=SUCCEEDED");
        assertThat(harness.requestsFor("gpt-4o-mini")).isEqualTo(1);
        assertThat(LadderConversations.lastSentTo(harness.mock, "gpt-4o").encode())
                .contains("Summary: steps 1 to 9 are planned.")
                .doesNotContain("Summary from a broken model.");
        assertThat(harness.breaker("compactor").snapshot().counts()).containsEntry("consecutiveErrors", 1L);
        assertThat(harness.breaker("spare").snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }
}
