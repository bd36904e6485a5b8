package io.agentfuse.gateway.dialect;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each dialect's output-size field is lowered to the step's limit, never raised, and a caller's nested value is never changed. */
class OutputTokenCapTest {

    @Test
    void lowersEachDialectsFieldAboveTheLimitAndLeavesOneWithinIt() {
        assertThat(OutputTokenCap.apply(new JsonObject().put("max_completion_tokens", 32_000), 16_384).getInteger("max_completion_tokens"))
                .isEqualTo(16_384);
        assertThat(OutputTokenCap.apply(new JsonObject().put("max_tokens", 32_000), 16_384).getInteger("max_tokens")).isEqualTo(16_384);
        assertThat(OutputTokenCap.apply(new JsonObject().put("max_output_tokens", 200_000), 128_000).getInteger("max_output_tokens"))
                .isEqualTo(128_000);
        assertThat(OutputTokenCap.apply(new JsonObject().put("max_tokens", 1_000), 16_384).getInteger("max_tokens")).isEqualTo(1_000);
        assertThat(OutputTokenCap.apply(new JsonObject().put("model", "m"), 16_384).containsKey("max_tokens"))
                .as("a body that asks for no size is not given one").isFalse();
    }

    @Test
    void replacesANestedObjectByACopyAndLeavesTheCallersAsItWas() {
        JsonObject callers = new JsonObject(Map.of("maxOutputTokens", 100_000, "temperature", 0.2));
        JsonObject body = new JsonObject().put("generationConfig", callers)
                .put("inferenceConfig", new JsonObject().put("maxTokens", 90_000));

        OutputTokenCap.apply(body, 65_536);

        assertThat(body.getJsonObject("generationConfig").getInteger("maxOutputTokens")).isEqualTo(65_536);
        assertThat(body.getJsonObject("generationConfig").getDouble("temperature")).isEqualTo(0.2);
        assertThat(body.getJsonObject("inferenceConfig").getInteger("maxTokens")).isEqualTo(65_536);
        assertThat(callers.getInteger("maxOutputTokens")).isEqualTo(100_000);
    }

    @Test
    void aThinkingBudgetTheLoweredLimitLeavesNoRoomForIsLoweredWithItOrLeftOut() {
        JsonObject callers = new JsonObject().put("type", "enabled").put("budget_tokens", 31_999);
        JsonObject lowered = OutputTokenCap.apply(new JsonObject().put("max_tokens", 32_000).put("thinking", callers), 16_000);
        JsonObject tooSmall = OutputTokenCap.apply(new JsonObject().put("max_tokens", 32_000)
                .put("thinking", new JsonObject().put("type", "enabled").put("budget_tokens", 2_000)), 1_000);
        JsonObject roomy = OutputTokenCap.apply(new JsonObject().put("max_tokens", 32_000)
                .put("thinking", new JsonObject().put("type", "enabled").put("budget_tokens", 4_000)), 16_000);

        assertThat(lowered.getJsonObject("thinking").getLong("budget_tokens")).isEqualTo(15_999);
        assertThat(callers.getInteger("budget_tokens")).as("the caller's value is not changed").isEqualTo(31_999);
        assertThat(tooSmall.containsKey("thinking")).as("Anthropic's least budget is 1 024").isFalse();
        assertThat(roomy.getJsonObject("thinking").getInteger("budget_tokens")).isEqualTo(4_000);
    }
}
