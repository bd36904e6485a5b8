package io.agentfuse.agent.budget;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.ModelPrice;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

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

    @Test
    void aCallThatReadItsInputFromTheCacheCountsEveryTokenAndCostsTheCachePrice() {
        ModelPrice sonnet = ModelPrice.of("3.00", "15.00")
                .withCache(new BigDecimal("0.30"), new BigDecimal("3.75"), new BigDecimal("6.00"));

        // A Claude Code turn: 100 000 tokens in, 95 000 of them read from the cache, 1 000 out.
        // 5 000 x $3 + 95 000 x $0.30 + 1 000 x $15, per million = 0.015 + 0.0285 + 0.015 = 0.0585 USD;
        // at the input price alone it would be 0.3 + 0.015 = 0.315 USD.
        assertThat(TokenEstimate.used(100_000, CachedTokens.ofReads(95_000), 1_000, sonnet))
                .isEqualTo(new BudgetAmount(101_000, 58_500_000));
        assertThat(TokenEstimate.used(100_000, CachedTokens.ofReads(95_000), 1_000, null))
                .isEqualTo(new BudgetAmount(101_000, 0));
    }
}
