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
        ModelPrice plain = config.model("plain").orElseThrow().price().orElseThrow();
        assertThat(plain.input()).isEqualByComparingTo("3");
        assertThat(plain.cacheRead()).as("Anthropic's tenth of the written input price").isEqualByComparingTo("0.3");
        assertThat(plain.cacheWrite()).isEqualByComparingTo("3.75");
    }

    @Test
    void aWrittenPriceWithoutCachePricesHasTheVendorsProportionsOfIt() {
        // The design's own entry, a negotiated OpenAI price, a Claude model by a cloud's name the table
        // does not list, and a self-hosted model whose cache no vendor prices.
        AgentfuseConfig config = ConfigLoader.parse("""
                providers: { anthropic: {}, openai: {} }
                models:
                  claude-sonnet-4: { provider: anthropic, price: { input: 3.00, output: 15.00 } }
                  gpt-5: { provider: openai, price: { input: 1.00, output: 8.00 } }
                  bedrock-next: { provider: anthropic, upstreamModel: us.anthropic.claude-opus-7-v1:0, price: { input: 10, output: 50 } }
                  llama: { provider: openai, upstreamModel: llama-3.3-70b, price: { input: 0.5, output: 0.5 } }
                """, "agentfuse.yaml", Map.of());

        assertThat(config.model("claude-sonnet-4").orElseThrow().price().orElseThrow().cacheRead()).isEqualByComparingTo("0.3");
        assertThat(config.model("gpt-5").orElseThrow().price().orElseThrow().cacheRead())
                .as("gpt-5 lists $0.125 of $1.25: a tenth").isEqualByComparingTo("0.1");
        ModelPrice next = config.model("bedrock-next").orElseThrow().price().orElseThrow();
        assertThat(next.cacheRead()).isEqualByComparingTo("1");
        assertThat(next.cacheWrite1h()).isEqualByComparingTo("20");
        ModelPrice llama = config.model("llama").orElseThrow().price().orElseThrow();
        assertThat(llama.cacheRead()).isNull();
        assertThat(llama.cacheWrite()).isNull();
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
