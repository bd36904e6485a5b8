package io.agentfuse.core.budget;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelPriceTest {

    @Test
    void aCallCostsItsTokensAtThePricePerMillionInNanoDollars() {
        ModelPrice sonnet = ModelPrice.of("3.00", "15.00");

        assertThat(sonnet.costNanos(1_000, 100)).isEqualTo(4_500_000); // 0.003 + 0.0015 USD
        assertThat(sonnet.costNanos(1_000_000, 0)).isEqualTo(3_000_000_000L);
    }

    @Test
    void aFractionOfANanoDollarIsRoundedUp() {
        assertThat(ModelPrice.of("0.0375", "0").costNanos(1, 0)).isEqualTo(38); // 37.5 nano-dollars
    }

    @Test
    void dollarsAndNanoDollarsConvertBothWays() {
        assertThat(ModelPrice.nanosOf(new BigDecimal("50.00"))).isEqualTo(50_000_000_000L);
        assertThat(ModelPrice.usdOf(12_500_000_000L)).isEqualTo("12.5");
        assertThat(ModelPrice.usdOf(50_000_000_000L)).isEqualTo("50");
        assertThat(ModelPrice.usdOf(37)).isEqualTo("0.000000037");
    }

    @Test
    void aNegativePriceIsRefusedWithTheValue() {
        assertThatThrownBy(() -> ModelPrice.of("-1", "2")).hasMessageContaining("input -1");
    }

    @Test
    void cachedInputIsChargedAtItsOwnPriceAndTheRestOfTheInputAtTheInputPrice() {
        ModelPrice sonnet = ModelPrice.of("3.00", "15.00")
                .withCache(new BigDecimal("0.30"), new BigDecimal("3.75"), new BigDecimal("6.00"));

        // 2 000 uncached x $3 + 95 000 read x $0.30 + 2 000 written x $3.75 + 1 000 written for an hour x $6
        // + 500 out x $15, per million: 0.006 + 0.0285 + 0.0075 + 0.006 + 0.0075 = 0.0555 USD.
        assertThat(sonnet.costNanos(100_000, new CachedTokens(95_000, 2_000, 1_000), 500)).isEqualTo(55_500_000);
    }

    @Test
    void aPriceThatDoesNotTellCachedInputChargesItAtTheInputPrice() {
        ModelPrice plain = ModelPrice.of("3.00", "15.00");
        ModelPrice readsOnly = plain.withCache(new BigDecimal("0.30"), null, null);
        ModelPrice noHour = plain.withCache(null, new BigDecimal("3.75"), null);

        assertThat(plain.costNanos(100_000, new CachedTokens(95_000, 2_000, 1_000), 0)).isEqualTo(300_000_000);
        // 5 000 x $3 + 95 000 x $0.30
        assertThat(readsOnly.costNanos(100_000, new CachedTokens(95_000, 5_000, 0), 0)).isEqualTo(43_500_000);
        // an hour's write at the default write price: 1 000 x $3.75
        assertThat(noHour.costNanos(1_000, new CachedTokens(0, 0, 1_000), 0)).isEqualTo(3_750_000);
    }

    @Test
    void cachedTokensThatDoNotFitInTheInputAreChargedAtTheInputPrice() {
        ModelPrice gpt5 = ModelPrice.of("1.25", "10.00").withCache(new BigDecimal("0.125"), null, null);

        assertThat(gpt5.costNanos(1_000, CachedTokens.ofReads(2_000), 0)).isEqualTo(1_250_000);
    }

    @Test
    void aNegativeCachePriceIsRefusedWithItsName() {
        assertThatThrownBy(() -> ModelPrice.of("1", "2").withCache(new BigDecimal("-0.1"), null, null))
                .hasMessageContaining("cacheRead was -0.1");
    }
}
