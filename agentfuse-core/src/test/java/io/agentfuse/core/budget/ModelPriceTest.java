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
}
