package io.agentfuse.gateway.budget;

import io.agentfuse.core.breaker.CircuitState;
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
 * A provider that reports more tokens than a {@code long} holds in sum (a broken or hostile
 * OpenAI-compatible server) has its answer relayed and is charged everything: the budget is spent
 * and the {@code tokenOveruse} trigger fires (regression: the sum wrapped negative, the exchange
 * failed with a 500 after the provider had answered, nothing was charged and no trigger fired).
 * Through a real gateway and mock provider on loopback.
 */
class EnormousUsageBudgetTest {

    private GatewayHarness gateway;

    @BeforeEach
    void start() {
        gateway = GatewayHarness.start(GatewayHarness.CONFIG + """
                budgets:
                  everything: { scope: global, tokens: 100000 }
                """);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    /** An OpenAI answer whose usage says {@code Long.MAX_VALUE} tokens read and as many written. */
    private static MockStep answerReporting(long tokens) {
        return MockStep.builder().body(new JsonObject()
                .put("id", "chatcmpl-enormous").put("object", "chat.completion").put("created", 1)
                .put("model", "gpt-4o-mini")
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("finish_reason", "stop")
                        .put("message", new JsonObject().put("role", "assistant").put("content", "ok"))))
                .put("usage", new JsonObject().put("prompt_tokens", tokens).put("completion_tokens", tokens)))
                .build();
    }

    @Test
    void anAnswerWhoseUsageSumsPastTheLargestCountIsRelayedAndSpendsTheBudget() {
        gateway.mock.scriptForModel("gpt-4o-mini", answerReporting(Long.MAX_VALUE));

        Reply answered = gateway.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("gpt-4o-mini", false));
        Reply next = gateway.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("gpt-4o-mini", false));

        assertThat(answered.status()).as(answered.body()).isEqualTo(200);
        assertThat(answered.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"))
                .isEqualTo("ok");
        assertThat(answered.header("x-agentfuse-budget")).startsWith("everything; scope=global; remaining=0;");
        assertThat(next.status()).isEqualTo(429);
        assertThat(next.json().getJsonObject("error").getString("type")).isEqualTo("budget_exceeded");
    }

    @Test
    void anAnswerWhoseUsageSumsPastTheLargestCountTripsTokenOveruse() {
        gateway.mock.scriptForModel("gpt-4o-mini", answerReporting(Long.MAX_VALUE));

        gateway.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("gpt-4o-mini", false));

        assertThat(gateway.breaker("gpt-4o-mini").state()).isEqualTo(CircuitState.OPEN);
    }
}
