package io.agentfuse.agent.budget;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.ModelPrice;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokenEstimateTest {

    @Test
    void aCallReservesItsInputAndItsMaxTokens() {
        assertThat(TokenEstimate.tokens(1_000, 800, 200_000)).isEqualTo(1_800);
    }

    @Test
    void withoutMaxTokensACallReservesTheDefaultOutput() {
        assertThat(TokenEstimate.tokens(1_000, null, 200_000)).isEqualTo(1_000 + TokenEstimate.DEFAULT_OUTPUT_TOKENS);
    }

    @Test
    void theEstimateIsCappedAtTheContextWindow() {
        assertThat(TokenEstimate.tokens(120_000, 64_000, 128_000)).isEqualTo(128_000);
        assertThat(TokenEstimate.tokens(130_000, 64_000, 128_000)).isEqualTo(130_000);
    }

    @Test
    void theCostOfTheEstimateIsAtTheModelsPricesAndNothingWithoutOne() {
        ModelPrice mini = ModelPrice.of("0.15", "0.60");

        assertThat(TokenEstimate.of(1_000, 1_000, 128_000, mini)).isEqualTo(new BudgetAmount(2_000, 750_000));
        assertThat(TokenEstimate.of(1_000, 1_000, 128_000, null)).isEqualTo(new BudgetAmount(2_000, 0));
        assertThat(TokenEstimate.used(10, 5, mini)).isEqualTo(new BudgetAmount(15, 4_500));
    }

    @Test
    void aUsageBeyondTheLargestCountIsChargedTheLargestCountNotANegativeOne() {
        ModelPrice mini = ModelPrice.of("0.15", "0.60");

        assertThat(TokenEstimate.used(Long.MAX_VALUE, Long.MAX_VALUE, mini))
                .isEqualTo(new BudgetAmount(Long.MAX_VALUE, Long.MAX_VALUE));
    }
}
