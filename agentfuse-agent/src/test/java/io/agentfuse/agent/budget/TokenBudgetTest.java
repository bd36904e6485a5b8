package io.agentfuse.agent.budget;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBudgetTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-04T10:00:00Z").toEpochMilli());

    private TokenBudget budget(long tokens) {
        return TokenBudget.builder("per-session").tokens(tokens).window(Duration.ofDays(1)).clock(clock).build();
    }

    @Test
    void aSessionThatSpentItsTokensIsRefusedUntilUtcMidnight() {
        TokenBudget budget = budget(1_000);
        budget.reserve("s1", BudgetAmount.ofTokens(600)).settle(BudgetAmount.ofTokens(600));
        budget.reserve("s1", BudgetAmount.ofTokens(600)).settle(BudgetAmount.ofTokens(500));

        assertThatThrownBy(() -> budget.reserve("s1", BudgetAmount.ofTokens(10)))
                .isInstanceOfSatisfying(BudgetExceededException.class, refused -> {
                    assertThat(refused.budget()).isEqualTo("per-session");
                    assertThat(refused.scopeValue()).isEqualTo("s1");
                    assertThat(refused.resetsAt()).isEqualTo(Instant.parse("2026-03-05T00:00:00Z"));
                });

        clock.advance(Duration.ofHours(14));
        assertThat(budget.reserve("s1", BudgetAmount.ofTokens(10)).remaining().tokens()).isEqualTo(990);
    }

    @Test
    void eachScopeValueHasItsOwnWindow() {
        TokenBudget budget = budget(100);
        budget.reserve("s1", BudgetAmount.ofTokens(100)).settle(BudgetAmount.ofTokens(100));

        assertThat(budget.reserve("s2", BudgetAmount.ofTokens(100)).remaining().tokens()).isZero();
    }

    @Test
    void aReleasedReservationGivesItsEstimateBack() {
        TokenBudget budget = budget(100);
        budget.reserve("s1", BudgetAmount.ofTokens(100)).release();

        assertThat(budget.reserve("s1", BudgetAmount.ofTokens(100)).estimate().tokens()).isEqualTo(100);
    }

    @Test
    void callsInFlightHoldTheirEstimateSoTheyCannotOvershootTogether() {
        TokenBudget budget = budget(1_000);
        budget.reserve("s1", BudgetAmount.ofTokens(900));
        budget.reserve("s1", BudgetAmount.ofTokens(900));

        assertThatThrownBy(() -> budget.reserve("s1", BudgetAmount.ofTokens(1))).isInstanceOf(BudgetExceededException.class);
    }

    @Test
    void aCostBudgetCountsDollarsAtTheModelsPrice() {
        TokenBudget budget = TokenBudget.builder("per-tenant").cost(new BigDecimal("0.01")).clock(clock).build();
        ModelPrice sonnet = ModelPrice.of("3", "15");
        TokenBudget.Reservation first = budget.reserve("team-a", TokenEstimate.of(1_000, 500, 200_000, sonnet));
        first.settle(TokenEstimate.used(1_000, 500, sonnet)); // 0.0105 USD

        assertThatThrownBy(() -> budget.reserve("team-a", TokenEstimate.of(10, 10, 200_000, sonnet)))
                .isInstanceOf(BudgetExceededException.class);
    }

    @Test
    void budgetsSharingALedgerCountTheirOwnWindows() {
        LocalBudgetLedger ledger = new LocalBudgetLedger(clock);
        TokenBudget a = TokenBudget.builder("a").tokens(10).ledger(ledger).clock(clock).build();
        TokenBudget b = TokenBudget.builder("b").tokens(10).ledger(ledger).clock(clock).build();
        a.reserve("x", BudgetAmount.ofTokens(10));

        assertThat(b.reserve("x", BudgetAmount.ofTokens(10)).remaining().tokens()).isZero();
        assertThat(ledger.size()).isEqualTo(2);
    }

    @Test
    void aBudgetWithoutALimitOrWithABadNameIsRefusedWithTheValue() {
        assertThatThrownBy(() -> TokenBudget.builder("empty").build()).hasMessageContaining("limits neither");
        assertThatThrownBy(() -> TokenBudget.builder("a b")).hasMessageContaining("'a b'");
        assertThatThrownBy(() -> TokenBudget.builder("x").tokens(0)).hasMessageContaining("but was 0");
        assertThatThrownBy(() -> TokenBudget.builder("x").window(Duration.ofMillis(10))).hasMessageContaining("PT0.01S");
    }
}
