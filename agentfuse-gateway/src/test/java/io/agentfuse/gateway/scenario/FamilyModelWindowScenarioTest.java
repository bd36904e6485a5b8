package io.agentfuse.gateway.scenario;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.RecordedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Claude model of today named without a {@code models:} entry — as Claude Code names its default
 * model — has the 1M-token window Anthropic publishes for it, without any beta: a conversation of some
 * 300 000 tokens reaches the provider whole, neither compacted nor refused by the gateway, where a
 * model of a 200 000-token window (Haiku 4.5) is refused by the gateway as the API would refuse it.
 */
class FamilyModelWindowScenarioTest {

    /** Some 276 000 tokens as the gateway counts Claude's (cl100k, 15 % more), 360 000 as the mock does. */
    private static final String LONG_TEXT = "hello ".repeat(240_000);
    private static final String CONFIG = GatewayHarness.CONFIG.replace("maxBodySize: 16KB", "maxBodySize: 4MB");

    private GatewayHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    private Reply ask(String model) {
        JsonObject body = new JsonObject().put("model", model).put("max_tokens", 100).put("messages", new JsonArray()
                .add(new JsonObject().put("role", "user").put("content", LONG_TEXT)));
        return harness.client.post("/v1/messages", body, Map.of());
    }

    @Test
    void aConversationOfThreeHundredThousandTokensToTodaysClaudeIsServedWholeAndToHaikuFourFiveRefused() {
        harness = GatewayHarness.start(CONFIG);

        Reply sonnet = ask("claude-sonnet-5");
        Reply snapshot = ask("claude-opus-5-5-20260922");
        Reply haiku = ask("claude-haiku-4-5"); // 200 000 tokens: still the gateway's refusal, as the API's

        assertThat(sonnet.status()).as(sonnet.body()).isEqualTo(200);
        assertThat(snapshot.status()).as(snapshot.body()).isEqualTo(200);
        List<RecordedRequest> sent = harness.mock.requests();
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0).jsonBody().orElseThrow().getString("model")).isEqualTo("claude-sonnet-5");
        assertThat(sent.get(0).jsonBody().orElseThrow().getJsonArray("messages")).hasSize(1);
        assertThat(sent.get(0).jsonBody().orElseThrow().getJsonArray("messages").getJsonObject(0).getString("content"))
                .as("neither compacted nor cut").isEqualTo(LONG_TEXT);
        assertThat(haiku.status()).as(haiku.body()).isEqualTo(413);
        assertThat(haiku.json().getJsonObject("error").getString("type")).isEqualTo("context_window_full");
    }
}
