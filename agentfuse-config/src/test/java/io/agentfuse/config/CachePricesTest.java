package io.agentfuse.config;

import io.agentfuse.core.budget.ModelPrice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The built-in table prices cached input as its vendors do (Anthropic by one rule, OpenAI by model),
 * and a configured price may say it with {@code cacheRead}, {@code cacheWrite} and {@code cacheWrite1h}.
 */
class CachePricesTest {

    @ParameterizedTest
    @CsvSource({
        "claude-sonnet-4-5, 0.30, 3.75, 6",
        "claude-opus-4-6, 0.5, 6.25, 10",
        "claude-haiku-4-5-20251001, 0.1, 1.25, 2",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0, 0.30, 3.75, 6"})
    void aClaudeModelReadsItsCacheAtATenthOfItsInputAndWritesIt125Or2Times(String model, String read, String write,
                                                                            String hourWrite) {
        ModelPrice price = ModelFamilies.priceOf(model).orElseThrow();

        assertThat(price.cacheRead()).isEqualByComparingTo(read);
        assertThat(price.cacheWrite()).isEqualByComparingTo(write);
        assertThat(price.cacheWrite1h()).isEqualByComparingTo(hourWrite);
    }

    @ParameterizedTest
    @CsvSource({
        "gpt-5, 0.125",
        "gpt-5-mini-2025-08-07, 0.025",
        "gpt-4.1, 0.50",
        "gpt-4o, 1.25",
        "o4-mini, 0.275"})
    void anOpenAiModelReadsItsCacheAtItsPublishedCachedInputPriceAndWritesNothingDearer(String model, String read) {
        ModelPrice price = ModelFamilies.priceOf(model).orElseThrow();

        assertThat(price.cacheRead()).isEqualByComparingTo(read);
        assertThat(price.cacheWrite()).as("OpenAI bills no cache write: at the input price").isNull();
    }

    @Test
    void onlyAModelWhoseVendorPublishesACachePriceReadsItsCacheCheaper() {
        assertThat(ModelFamilies.priceOf("gpt-5").orElseThrow().cacheRead()).isEqualByComparingTo("0.125");
        for (String unpublished : List.of("gpt-5-pro", "gpt-4-turbo", "gemini-2.5-pro")) {
            ModelPrice price = ModelFamilies.priceOf(unpublished).orElseThrow();
            assertThat(price.cacheRead()).as(unpublished + ": cached input at the input price").isNull();
            assertThat(price.cacheWrite()).as(unpublished).isNull();
        }
    }

    @Test
    void aConfiguredPriceSaysWhatCachedInputCosts() {
        AgentfuseConfig config = ConfigLoader.parse("""
                providers: { anthropic: {} }
                models:
                  sonnet: { provider: anthropic, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 } }
                  plain: { provider: anthropic, upstreamModel: claude-sonnet-4-5, price: { input: 3, output: 15 } }
                """, "agentfuse.yaml", Map.of());

        ModelPrice sonnet = config.model("sonnet").orElseThrow().price().orElseThrow();
        assertThat(sonnet.cacheRead()).isEqualByComparingTo("0.3");
        assertThat(sonnet.cacheWrite()).isEqualByComparingTo("3.75");
        assertThat(sonnet.cacheWrite1h()).isEqualByComparingTo("6");
        assertThat(config.model("plain").orElseThrow().price()).as("what is written, nothing more: the input price")
                .contains(ModelPrice.of("3", "15"));
    }

    @Test
    void aMistakeInACachePriceIsReportedWithItsKeyAndLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                providers: { anthropic: {} }
                models:
                  sonnet:
                    provider: anthropic
                    price: { input: 3, output: 15, cacheRead: -1, cacheReads: 0.3 }
                """, "agentfuse.yaml", Map.of()));

        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("models.sonnet.price.cacheRead");
            assertThat(error.line()).isEqualTo(5);
            assertThat(error.message()).contains("between 0 and");
        });
        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo("models.sonnet.price.cacheReads");
            assertThat(error.message()).contains("unknown key");
        });
    }
}
