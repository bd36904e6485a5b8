package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.budget.ModelPrice;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ModelFamiliesTest {

    @ParameterizedTest
    @CsvSource({
        "claude-haiku-4, anthropic, 200000",
        "claude-sonnet-4-5, anthropic, 200000",
        "claude-2.0, anthropic, 100000",
        "gpt-4o-mini, openai, 128000",
        "gpt-4o-2024-08-06, openai, 128000",
        "gpt-4, openai, 8192",
        "gpt-4-0613, openai, 8192",
        "gpt-4-turbo, openai, 128000",
        "gpt-4.1-mini, openai, 1047576",
        "gpt-5, openai, 400000",
        "chatgpt-4o-latest, openai, 128000",
        "o1-mini, openai, 128000",
        "o3-mini, openai, 200000",
        "o4-mini, openai, 200000",
        "gpt-7-preview, openai, 1050000",
        "gemini-2.5-pro, gemini, 1048576",
        "gemini-1.5-pro-002, gemini, 2097152",
        "gemini-3-pro-preview, gemini, 1048576"})
    void routesEachFamilyToItsProviderWithItsPublishedWindow(String model, String provider, int window) {
        assertThat(ModelFamilies.providerOf(model)).contains(provider);
        assertThat(ModelFamilies.contextWindowOf(model)).isEqualTo(window);
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama-3.1-70b", "gemma-3-27b", "mistral-large", "claude", "my-gpt-4o"})
    void knowsNoOtherFamily(String model) {
        assertThat(ModelFamilies.providerOf(model)).isEmpty();
        assertThatThrownBy(() -> ModelFamilies.contextWindowOf(model))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("model " + model + " belongs to no built-in provider's family");
    }

    @Test
    void aNameLongerThanAnyVendorsBelongsToNoFamily() {
        String longest = "claude-" + "x".repeat(ModelFamilies.LONGEST_NAME - "claude-".length());

        assertThat(ModelFamilies.providerOf(longest)).contains("anthropic");
        assertThat(ModelFamilies.providerOf(longest + "x")).isEmpty();
        assertThat(ModelFamilies.modelOf("gpt-" + "4o".repeat(200), Map.of(), ConfigDefaults.RETRY)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4o\r\nx-forged: 1", "gpt-4o\n2026-01-01 INFO forged line", "claude-\u0000",
        "gpt-4o mini", "gpt-4o\t", "claude-sonnet-\u00e9", "gpt-4o\u007f", "gemini-2.5-pro\u2028"})
    void aNameWithACharThatIsNotVisibleAsciiBelongsToNoFamily(String name) {
        assertThat(ModelFamilies.providerOf(name)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-sonnet-4-5@20250929", "gpt-oss:20b", "claude-3-5-sonnet-20241022-v2:0",
        "gemini-2.5-pro-preview-05-06", "o3-mini", "gpt-4o_custom+ft~1"})
    void vendorsNamesWithTheirPunctuationStillBelongToTheirFamily(String name) {
        assertThat(ModelFamilies.providerOf(name)).isPresent();
    }

    @ParameterizedTest
    @CsvSource({
        "claude-sonnet-4-6, 1000000",
        "claude-opus-4-6, 1000000",
        "claude-opus-4-7, 1000000",
        "claude-opus-4-8, 1000000",
        "claude-opus-5, 1000000",
        "claude-opus-5-5, 1000000",
        "claude-sonnet-5, 1000000",
        "claude-sonnet-5-20260630, 1000000",
        "claude-sonnet-5-5, 1000000",
        "claude-haiku-5-5, 1000000",
        "claude-fable-5, 1000000",
        "claude-fable-5-1, 1000000",
        "claude-fable-5-2, 1000000",
        "claude-mythos-5, 1000000",
        "claude-mythos-5-2, 1000000",
        "claude-haiku-4-5-20251001, 200000",
        "claude-opus-4-5-20251101, 200000",
        "claude-sonnet-4-5, 200000",
        "claude-sonnet-9, 1000000",
        "gpt-5.1, 400000",
        "gpt-5.2, 400000",
        "gpt-5.4, 1050000",
        "gpt-5.5, 1050000",
        "gpt-5.5-2026-04-23, 1050000",
        "gpt-5.6-sol, 1050000",
        "gpt-6-sol, 1050000",
        "gpt-6.1-sol, 1050000",
        "gemini-3.1-pro-preview, 1048576"})
    void knowsTheWindowsOfTodaysModelsAndTheirSnapshots(String model, int window) {
        assertThat(ModelFamilies.contextWindowOf(model)).isEqualTo(window);
        if (!model.equals("claude-sonnet-9")) {
            assertThat(ModelFamilies.isKnown(model)).as("%s is in the table", model).isTrue();
        }
    }

    @ParameterizedTest
    @CsvSource({
        "claude-opus-4-7, 5, 25",
        "claude-opus-4-8, 5, 25",
        "claude-opus-5, 5, 25",
        "claude-opus-5-5, 4, 20",
        "claude-sonnet-4-6, 3, 15",
        "claude-sonnet-5, 2, 10",
        "claude-sonnet-5-20260630, 2, 10",
        "claude-sonnet-5-5, 2, 10",
        "claude-haiku-4-5, 1, 5",
        "claude-haiku-5-5, 0.50, 2.50",
        "claude-fable-5, 10, 50",
        "claude-fable-5-1, 10, 50",
        "claude-fable-5-2, 8, 40",
        "claude-mythos-5, 10, 50",
        "claude-mythos-5-1, 10, 50",
        "claude-mythos-5-2, 8, 40",
        "gpt-5.2, 1.75, 14",
        "gpt-5.4, 2.50, 15",
        "gpt-5.5, 5, 30",
        "gpt-5.6-sol, 5, 30",
        "gpt-6-sol, 2, 10",
        "gpt-6.1-sol, 2, 10"})
    void pricesTodaysModelsByTheirListPrice(String model, String input, String output) {
        assertThat(ModelFamilies.priceOf(model).map(ModelFamiliesTest::listed)).contains(ModelPrice.of(input, output));
    }

    @ParameterizedTest
    @CsvSource({
        "claude-sonnet-4, 3, 15",
        "claude-sonnet-4-5-20250929, 3, 15",
        "claude-haiku-4, 1, 5",
        "claude-opus-4-1, 15, 75",
        "claude-opus-4-5, 5, 25",
        "claude-3-5-haiku-20241022, 0.80, 4",
        "gpt-4o, 2.50, 10",
        "gpt-4o-mini, 0.15, 0.60",
        "gpt-4o-2024-08-06, 2.50, 10",
        "gpt-4.1-mini, 0.40, 1.60",
        "o4-mini, 1.10, 4.40",
        "claude-haiku-4-5-20251001, 1, 5",
        "claude-sonnet-4-6, 3, 15",
        "gpt-4-0613, 30, 60",
        "o3-2025-04-16, 2, 8",
        "claude-3-5-sonnet-latest, 3, 15"})
    void pricesTheCommonModelsByTheirListPricePerMillionTokens(String model, String input, String output) {
        assertThat(ModelFamilies.priceOf(model).map(ModelFamiliesTest::listed)).contains(ModelPrice.of(input, output));
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama-3.1-70b", "claude-unknown-9", "gpt-7-preview", "my-gpt-4o"})
    void hasNoPriceForAModelItDoesNotList(String model) {
        assertThat(ModelFamilies.priceOf(model)).isEmpty();
    }

    @Test
    void theHighestPriceIsTheDearestModelOfNoPremiumTier() {
        assertThat(ModelFamilies.HIGHEST_PRICE).isEqualTo(ModelPrice.of("15", "75"));
    }

    @Test
    void aConfiguredModelThatWritesNoWindowGetsItsPublishedOne() {
        AgentfuseConfig config = ConfigLoader.parse("""
                providers: { anthropic: {}, local: { type: openai, baseUrl: "http://127.0.0.1:8000/v1" } }
                models:
                  sonnet: { provider: anthropic, upstreamModel: claude-sonnet-5-20260630 }
                  claude-sonnet-4-5: { provider: anthropic }
                  capped: { provider: anthropic, upstreamModel: claude-sonnet-5, contextWindow: 200000 }
                  gpt-oss-20b: { provider: local }
                """, "agentfuse.yaml", Map.of());

        assertThat(config.model("sonnet").orElseThrow().contextWindow()).as("the upstream model's").isEqualTo(1_000_000);
        assertThat(config.model("claude-sonnet-4-5").orElseThrow().contextWindow()).as("the key's").isEqualTo(200_000);
        assertThat(config.model("capped").orElseThrow().contextWindow()).as("written").isEqualTo(200_000);
        assertThat(config.model("gpt-oss-20b").orElseThrow().contextWindow()).as("not in the table: the default")
                .isEqualTo(ConfigDefaults.MODEL_CONTEXT_WINDOW);
    }

    @ParameterizedTest
    @CsvSource({
            "us.anthropic.claude-opus-4-6-v1:0, 1000000, 5, 25",
            "global.anthropic.claude-sonnet-4-5-20250929-v1:0, 200000, 3, 15",
            "claude-opus-4-6@20260205, 1000000, 5, 25",
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-6, 1000000, 3, 15"})
    void aCloudsNameOfAVendorsModelHasTheVendorsWindowAndPrice(String model, int window, String input, String output) {
        assertThat(ModelFamilies.publishedWindowOf(model)).contains(window);
        assertThat(ModelFamilies.priceOf(model).map(ModelFamiliesTest::listed)).contains(ModelPrice.of(input, output));
    }

    /** {@code price} without what it says of cached input: the list price of input and output. */
    private static ModelPrice listed(ModelPrice price) {
        return new ModelPrice(price.input(), price.output());
    }
}
