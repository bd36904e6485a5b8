package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.core.budget.ModelPrice;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A family name without an entry that the vendor does not serve under that name (the defaults'
 * {@code claude-haiku-4}) goes upstream as the name the vendor serves that line's model by, keeping its
 * own name for answers, breakers and meters; every other family name goes upstream as written.
 */
class ServedNamesTest {

    private static ModelConfig familyModel(String name) {
        return ModelFamilies.modelOf(name, Map.of(ConfigDefaults.DEFAULT_BREAKER_NAME, ConfigDefaults.MODEL_BREAKER),
                ConfigDefaults.RETRY).orElseThrow();
    }

    @ParameterizedTest
    @CsvSource({
        "claude-haiku-4, claude-haiku-4-5",
        "claude-sonnet-4, claude-sonnet-4-6",
        "claude-opus-4, claude-opus-4-8",
        "Claude-Haiku-4, claude-haiku-4-5",
        "claude-haiku-4-5, claude-haiku-4-5",
        "claude-haiku-4-5-20251001, claude-haiku-4-5-20251001",
        "claude-opus-4-1, claude-opus-4-1",
        "gpt-4o-mini, gpt-4o-mini",
        "claude-invented-9, claude-invented-9"})
    void aFamilyModelGoesUpstreamAsTheVendorServesItAndKeepsItsName(String name, String upstream) {
        ModelConfig model = familyModel(name);

        assertThat(model.upstreamModel()).isEqualTo(upstream);
        assertThat(model.name()).isEqualTo(name);
        assertThat(ModelFamilies.servedNameOf(name)).isEqualTo(upstream);
    }

    @Test
    void theDefaultsNameAModelTheVendorServes() {
        assertThat(familyModel(ConfigDefaults.COMPACT_MODEL).upstreamModel()).isEqualTo("claude-haiku-4-5");
        assertThat(ConfigDefaults.SUBAGENTS.fallbacks()).extracting(name -> familyModel(name).upstreamModel())
                .containsExactly("claude-haiku-4-5", "gpt-4o-mini");
    }

    @Test
    void theWindowAndPriceAreThoseOfTheModelThatAnswers() {
        ModelConfig opus = familyModel("claude-opus-4");

        assertThat(opus.contextWindow()).isEqualTo(1_000_000);
        assertThat(opus.price().map(ServedNamesTest::listed)).contains(ModelPrice.of("5", "25"));
        assertThat(familyModel("claude-haiku-4").contextWindow()).isEqualTo(200_000);
        assertThat(familyModel("claude-haiku-4").price().map(ServedNamesTest::listed)).contains(ModelPrice.of("1", "5"));
    }

    @Test
    void aConfiguredAnthropicModelThatWritesNoUpstreamNameGoesAsAnthropicServesIt() {
        // the seeds' own entry; a written upstreamModel stays the operator's word, another provider's too
        AgentfuseConfig config = ConfigLoader.parse("""
                models:
                  claude-haiku-4: { provider: anthropic, contextWindow: 200000 }
                  written: { provider: anthropic, upstreamModel: claude-haiku-4 }
                  claude-sonnet-4: { provider: openai }
                """, "served.yaml", Map.of());

        assertThat(config.models().get("claude-haiku-4").upstreamModel()).isEqualTo("claude-haiku-4-5");
        assertThat(config.models().get("written").upstreamModel()).isEqualTo("claude-haiku-4");
        assertThat(config.models().get("claude-sonnet-4").upstreamModel()).isEqualTo("claude-sonnet-4");
    }

    /** {@code price} without what it says of cached input: the list price of input and output. */
    private static ModelPrice listed(ModelPrice price) {
        return new ModelPrice(price.input(), price.output());
    }
}
