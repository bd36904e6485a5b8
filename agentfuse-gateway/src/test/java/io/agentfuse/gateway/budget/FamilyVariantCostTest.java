package io.agentfuse.gateway.budget;

import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cost budget counts a family model served without an entry at its own list price, or when the
 * table has none at the unpriced rule: never at the price of the model its name starts with. A
 * gpt-5.5-pro counted at gpt-5.5's $5/$30 let a user spend six times the budget.
 */
class FamilyVariantCostTest {

    private GatewayHarness gateway;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
                budgets:
                  dollars: { scope: global, cost: 1 }
                """);
        // 10 tokens read, 90 written
        gateway.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @ParameterizedTest
    @CsvSource({
        // its own list price, $30/$180: 10 × 30 + 90 × 180 = 16 500 µ$
        "gpt-5.5-pro, 0.9835",
        // its own, $21/$168, not gpt-5.2's $1.75/$14: 210 + 15 120 µ$
        "gpt-5.2-pro, 0.98467",
        // unpriced, of the premium tier: o1-pro's $150/$600, 1 500 + 54 000 µ$
        "gpt-5.9-pro, 0.9445",
        // unpriced, of no premium tier: the standard highest, $15/$75, 150 + 6 750 µ$
        "gpt-4o-realtime-preview, 0.9931"})
    void aFamilyVariantSpendsTheBudgetAtItsOwnPriceOrTheUnpricedRuleNotItsBases(String model, String remaining) {
        JsonObject body = GatewayHarness.openAiRequest(model, false).put("max_tokens", 100);

        Reply reply = gateway.client.post("/v1/chat/completions", body);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(gateway.requestsFor(model)).isEqualTo(1);
        assertThat(reply.header("x-agentfuse-budget"))
                .startsWith("dollars; scope=global; remaining=" + remaining + ";");
    }
}
