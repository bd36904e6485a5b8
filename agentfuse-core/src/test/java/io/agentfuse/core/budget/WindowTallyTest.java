package io.agentfuse.core.budget;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WindowTallyTest {

    private static final WindowKey KEY = new WindowKey("per-tenant", "team-a", 0);

    private static WindowTally window(BudgetLimit limit) {
        return WindowTally.empty(new BudgetClaim(KEY, limit, 86_400_000));
    }

    @Test
    void aWindowAdmitsWhileSomethingIsLeftAndTheReservationTakesItsWholeEstimate() {
        WindowTally tally = window(BudgetLimit.ofTokens(1_000)).reserve(BudgetAmount.ofTokens(999));

        assertThat(tally.admits()).isTrue();
        WindowTally over = tally.reserve(BudgetAmount.ofTokens(500));
        assertThat(over.reserved().tokens()).isEqualTo(1_499);
        assertThat(over.admits()).isFalse();
        assertThat(over.remaining().tokens()).isZero();
    }

    @Test
    void aWindowSpentExactlyToItsLimitAdmitsNothingMore() {
        WindowTally tally = window(BudgetLimit.ofTokens(1_000)).spend(BudgetAmount.ofTokens(1_000));

        assertThat(tally.admits()).isFalse();
    }

    @Test
    void settlingReplacesTheEstimateWithWhatWasUsed() {
        BudgetAmount estimate = BudgetAmount.ofTokens(4_196);
        WindowTally settled = window(BudgetLimit.ofTokens(10_000)).reserve(estimate)
                .settle(estimate, BudgetAmount.ofTokens(130));

        assertThat(settled.spent().tokens()).isEqualTo(130);
        assertThat(settled.reserved().tokens()).isZero();
        assertThat(settled.remaining().tokens()).isEqualTo(9_870);
    }

    @Test
    void aCostLimitRefusesOnceItsDollarsAreSpentWhateverTheTokens() {
        BudgetLimit limit = new BudgetLimit(1_000_000, 50_000_000);
        WindowTally tally = window(limit).spend(new BudgetAmount(10, 50_000_000));

        assertThat(tally.admits()).isFalse();
        assertThat(tally.remaining()).isEqualTo(new BudgetAmount(999_990, 0));
    }

    @Test
    void resetForgetsTheSpendButKeepsCallsInFlight() {
        WindowTally tally = window(BudgetLimit.ofTokens(100)).spend(BudgetAmount.ofTokens(100))
                .reserve(BudgetAmount.ofTokens(20)).reset();

        assertThat(tally.spent()).isEqualTo(BudgetAmount.ZERO);
        assertThat(tally.reserved().tokens()).isEqualTo(20);
        assertThat(tally.admits()).isTrue();
    }

    @Test
    void aShareOfWhatIsLeftIsDividedAmongTheInstancesButNeverZero() {
        BudgetLimit limit = new BudgetLimit(9_000, 3_000);

        assertThat(limit.share(new BudgetAmount(9_000, 3_000), 3)).isEqualTo(new BudgetLimit(3_000, 1_000));
        assertThat(limit.share(new BudgetAmount(2, 0), 3)).isEqualTo(new BudgetLimit(1, 1));
        assertThat(BudgetLimit.ofTokens(10).share(new BudgetAmount(10, 0), 2)).isEqualTo(BudgetLimit.ofTokens(5));
    }
}
