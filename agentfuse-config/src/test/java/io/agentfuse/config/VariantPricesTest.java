package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.budget.ModelPrice;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A model's price is its own entry's or its snapshot's, never its base's: a budget that counted
 * gpt-5.5-pro at gpt-5.5's price let a user spend six times its limit.
 */
class VariantPricesTest {

    @ParameterizedTest
    @CsvSource({
        "gpt-5-pro, 15, 120",
        "gpt-5.2-pro, 21, 168",
        "gpt-5.4-pro, 30, 180",
        "gpt-5.5-pro, 30, 180",
        "gpt-5.5-pro-2026-04-23, 30, 180",
        "o1-pro, 150, 600",
        "o3-pro, 20, 80",
        "o3-deep-research, 10, 40",
        "o4-mini-deep-research, 2, 8",
        "o1-preview, 15, 60",
        "gpt-5.1, 1.25, 10",
        "gpt-5-codex, 1.25, 10",
        "gpt-5.1-codex, 1.25, 10",
        "gpt-5.1-codex-mini, 0.25, 2",
        "gpt-5.3-codex, 1.75, 14",
        "gemini-3.1-pro-preview, 4, 18",
        "gemini-3-pro-preview, 4, 18"})
    void pricesEachVariantAtItsOwnListPriceNotItsBases(String model, String input, String output) {
        assertThat(ModelFamilies.priceOf(model).map(VariantPricesTest::listed)).contains(ModelPrice.of(input, output));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-4o-realtime-preview", "gpt-4o-audio-preview", "gemini-2.5-flash-image",
        "o3-deep-research-max", "gpt-5.5-ultra", "claude-opus-4-1-fast", "gpt-5.1-codex-max", "o1-pro-mini"})
    void aNameThatStartsWithAnEntryButIsNoSnapshotOfItHasNoPrice(String model) {
        assertThat(ModelFamilies.priceOf(model)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "gpt-5.5-pro, 1050000",
        "gpt-5-pro, 400000",
        "o3-deep-research, 200000",
        "o4-mini-deep-research, 200000",
        "gpt-5.1-codex-max, 400000",
        "gemini-2.5-flash-lite, 1048576"})
    void knowsTheVariantsByNameWithTheirWindows(String model, int window) {
        assertThat(ModelFamilies.isKnown(model)).as("%s is in the table", model).isTrue();
        assertThat(ModelFamilies.contextWindowOf(model)).isEqualTo(window);
    }

    @ParameterizedTest
    @CsvSource({
        "gpt-5.9-pro, 150, 600",
        "o4-pro, 150, 600",
        "gpt-5.5-pro-max, 150, 600",
        "gpt-5.9, 15, 75",
        "gpt-4o-realtime-preview, 15, 75",
        "claude-sonnet-9, 15, 75",
        "gemini-4-pro, 15, 75",
        "llama-3.1-70b, 15, 75"})
    void anUnpricedPremiumModelIsCountedAtItsFamilysDearestPremiumPriceAndAnyOtherAtTheStandardHighest(
            String model, String input, String output) {
        assertThat(ModelFamilies.unpricedPriceOf(model)).isEqualTo(ModelPrice.of(input, output));
    }

    @Test
    void theHighestPriceLeavesOutThePremiumTierSoThatO1ProDoesNotRaiseIt() {
        assertThat(ModelFamilies.priceOf("o1-pro")).contains(ModelPrice.of("150", "600"));
        assertThat(ModelFamilies.HIGHEST_PRICE).isEqualTo(ModelPrice.of("15", "75"));
    }

    @Test
    void aCostBudgetRefusesAConfiguredVariantThatHasNoPriceOfItsOwn() {
        String yaml = """
                budgets: { monthly: { scope: global, cost: 100 } }
                models:
                  audio: { provider: openai, upstreamModel: gpt-4o-audio-preview }
                  pro: { provider: openai, upstreamModel: gpt-5.5-pro }
                """;

        assertThatThrownBy(() -> ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of()))
                .isInstanceOfSatisfying(ConfigException.class, failure -> assertThat(failure.errors())
                        .singleElement().satisfies(error -> {
                            assertThat(error.path()).isEqualTo("budgets.monthly.cost");
                            assertThat(error.message()).contains("models.audio").doesNotContain("models.pro");
                        }));
    }

    /** {@code price} without what it says of cached input: the list price of input and output. */
    private static ModelPrice listed(ModelPrice price) {
        return new ModelPrice(price.input(), price.output());
    }
}
