package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each model's output limit ({@link ModelOutputLimits}, {@link ModelConfig#maxOutputTokens}): the
 * published one of its upstream name, its snapshots and cloud names read as the vendor's; 4 096 for a
 * name the table does not know; {@code models.<m>.maxOutputTokens} over both, refused with key and line
 * when it is no positive number.
 */
class ModelOutputLimitsTest {

    @Test
    void theTableReadsSnapshotsVariantsAndCloudNamesAsTheirModels() {
        assertThat(ModelOutputLimits.publishedOf("claude-haiku-4-5")).hasValue(64_000);
        assertThat(ModelOutputLimits.publishedOf("claude-haiku-4-5-20251001")).hasValue(64_000);
        assertThat(ModelOutputLimits.publishedOf("us.anthropic.claude-haiku-4-5-20251001-v1:0")).hasValue(64_000);
        assertThat(ModelOutputLimits.publishedOf("claude-opus-4-1")).hasValue(32_000);
        assertThat(ModelOutputLimits.publishedOf("claude-fable-5-2")).hasValue(128_000);
        assertThat(ModelOutputLimits.publishedOf("gpt-4o-mini-2024-07-18")).hasValue(16_384);
        assertThat(ModelOutputLimits.publishedOf("gpt-4o-2024-05-13")).hasValue(4_096);
        assertThat(ModelOutputLimits.publishedOf("gpt-4.1-nano")).hasValue(32_768);
        assertThat(ModelOutputLimits.publishedOf("o3-pro")).hasValue(100_000);
        assertThat(ModelOutputLimits.publishedOf("gemini-2.5-flash")).hasValue(65_536);
        assertThat(ModelOutputLimits.publishedOf("llama-3.1-70b")).isEmpty();
    }

    @Test
    void everyModelOfTheTableOfWindowsHasAnOutputLimitSmallerThanItsWindow() {
        for (String model : ModelFamilies.knownModels()) {
            assertThat(ModelOutputLimits.publishedOf(model)).as(model).hasValueSatisfying(limit ->
                    assertThat(limit).isPositive().isLessThanOrEqualTo(ModelFamilies.contextWindowOf(model)));
        }
    }

    @Test
    void aModelGetsTheLimitOfItsUpstreamNameElseOfItsOwnElseTheDefault() {
        AgentfuseConfig config = parse("""
                providers: { anthropic: {}, openai: {}, local: { type: openai, baseUrl: "http://127.0.0.1:8000/v1" } }
                models:
                  summarizer: { provider: openai, upstreamModel: gpt-4o-mini }
                  claude-haiku-4: { provider: anthropic }
                  llama: { provider: local, upstreamModel: llama-3.1-70b }
                context: { compactModel: claude-haiku-4-5 }
                """);

        assertThat(config.model("summarizer").orElseThrow().maxOutputTokens()).isEqualTo(16_384);
        assertThat(config.model("claude-haiku-4").orElseThrow().maxOutputTokens()).isEqualTo(64_000);
        assertThat(config.model("llama").orElseThrow().maxOutputTokens()).isEqualTo(ModelOutputLimits.UNLISTED);
        assertThat(config.model("claude-haiku-4-5").orElseThrow().maxOutputTokens()).as("a family model").isEqualTo(64_000);
        assertThat(ModelFamilies.modelOf("claude-haiku-4", config.breakers(), config.retry()))
                .hasValueSatisfying(model -> assertThat(model.maxOutputTokens()).isEqualTo(64_000));
    }

    @Test
    void aWrittenLimitIsTheOperatorsWord() {
        AgentfuseConfig config = parse("""
                providers: { local: { type: openai, baseUrl: "http://127.0.0.1:8000/v1" }, openai: {} }
                models:
                  llama: { provider: local, upstreamModel: llama-3.1-70b, maxOutputTokens: 32768 }
                  proxied: { provider: openai, upstreamModel: gpt-4.1, maxOutputTokens: 8000 }
                """);

        assertThat(config.model("llama").orElseThrow().maxOutputTokens()).isEqualTo(32_768);
        assertThat(config.model("proxied").orElseThrow().maxOutputTokens()).isEqualTo(8_000);
    }

    @Test
    void aCallersRequestIsCappedAtAKnownOrWrittenLimitAndAnUndescribedModelsIsNot() {
        AgentfuseConfig config = parse("""
                providers: { local: { type: openai, baseUrl: "http://127.0.0.1:8000/v1" }, openai: {} }
                models:
                  mini: { provider: openai, upstreamModel: gpt-4o-mini }
                  llama: { provider: local, upstreamModel: llama-3.1-70b }
                  big-llama: { provider: local, upstreamModel: llama-3.1-405b, maxOutputTokens: 32768 }
                  small-llama: { provider: local, upstreamModel: llama-3.2-3b, maxOutputTokens: 4096 }
                context: { compactModel: claude-haiku-4-5 }
                """);

        assertThat(config.model("mini").orElseThrow().maxOutputTokensKnown()).isTrue();
        assertThat(config.model("llama").orElseThrow().maxOutputTokensKnown())
                .as("the default the gateway's own summaries keep to is no limit on a caller").isFalse();
        assertThat(config.model("big-llama").orElseThrow().maxOutputTokensKnown()).isTrue();
        assertThat(config.model("small-llama").orElseThrow().maxOutputTokensKnown()).as("written, whatever its value").isTrue();
        assertThat(config.model("claude-haiku-4-5").orElseThrow().maxOutputTokensKnown()).as("a family model").isTrue();
    }

    @Test
    void aLimitBelowOneIsRefusedWithKeyAndLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> parse("""
                providers: { openai: {} }
                models:
                  a:
                    provider: openai
                    maxOutputTokens: 0
                """));

        assertThat(failure).as("expected a ConfigException").isNotNull();
        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("models.a.maxOutputTokens");
            assertThat(error.line()).isEqualTo(5);
        });
    }

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of());
    }
}
