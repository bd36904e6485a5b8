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
}
