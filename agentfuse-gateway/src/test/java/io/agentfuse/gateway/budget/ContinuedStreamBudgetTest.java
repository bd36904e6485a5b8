package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.GatewayClient.StreamReply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A stream broken and continued by the next step costs each part at its own model's price
 * (docs/design.md §11, docs/streams.md): what the broken stream reported at the first model's,
 * the continuation at its own. Through a real gateway and mock provider on loopback.
 */
class ContinuedStreamBudgetTest {

    private static final String CONFIG = """
            server:
              port: 0
            providers:
              anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-ant-configured" }
            retry:
              maxAttempts: 1
            models:
              dear: { provider: anthropic, upstreamModel: up-dear, streamIdleTimeout: 1s, fallbacks: [cheap], streamContinuation: true, price: { input: 1000, output: 1000 } }
              cheap: { provider: anthropic, upstreamModel: up-cheap, price: { input: 1, output: 1 } }
            budgets:
              dollars: { scope: global, cost: 100 }
            """;

    private GatewayHarness gateway;

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void eachPartOfAContinuedStreamIsPricedAtItsOwnModelsPrice() {
        gateway = GatewayHarness.start(CONFIG);
        // The first stream tells 7 input tokens and 1 output token, then is cut; the next step writes the rest.
        gateway.mock.scriptForModel("up-dear", MockStep.builder().chunks("one ", "two ", "four").inputTokens(7)
                .drop(MockStep.Drop.MID_STREAM).dropAfterChunks(1).build());
        gateway.mock.scriptForModel("up-cheap", MockStep.builder().chunks("two ", "three").inputTokens(20).outputTokens(5).build());
        JsonObject request = new JsonObject().put("model", "dear").put("stream", true).put("max_tokens", 100)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Count to three")));

        StreamReply reply = gateway.client.stream("/v1/messages", request, Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.cutOff()).as("continued to a clean end: %s", reply.data()).isFalse();
        Eventually.holdsAsked(gateway.vertx, () -> spentUsd() > 0); // settled as the stream ends
        // USD: 8 tokens at 1 000 per million, 25 at 1 per million
        assertThat(spentUsd()).isCloseTo(8 * 1000e-6 + 25 * 1e-6, within(1e-9));
    }

    private double spentUsd() {
        return gateway.client.get("/admin/budgets").json().getJsonArray("budgets").getJsonObject(0)
                .getJsonArray("windows").getJsonObject(0).getJsonObject("spent").getDouble("cost");
    }
}
