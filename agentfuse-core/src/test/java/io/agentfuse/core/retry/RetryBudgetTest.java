package io.agentfuse.core.retry;

import io.agentfuse.core.ManualClock;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryBudgetTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void allowsNoRetryBeforeAnyCallWithoutAFloor() {
        RetryBudget budget = RetryBudget.of(0.2, 0, Duration.ofSeconds(10), clock);

        assertThat(budget.tryWithdraw()).isFalse();
        assertThat(budget.available()).isZero();
    }

    @Test
    void allowsOneRetryPerFiveCallsAtTwentyPercent() {
        RetryBudget budget = RetryBudget.of(0.2, 0, Duration.ofSeconds(10), clock);
        for (int i = 0; i < 10; i++) {
            budget.deposit();
        }

        assertThat(budget.tryWithdraw()).isTrue();
        assertThat(budget.tryWithdraw()).isTrue();
        assertThat(budget.tryWithdraw()).isFalse();
    }

    @Test
    void theFloorLetsAQuietClientRetry() {
        RetryBudget budget = RetryBudget.of(0.2, 1, Duration.ofSeconds(10), clock);

        int granted = 0;
        while (budget.tryWithdraw()) {
            granted++;
        }

        assertThat(granted).isEqualTo(10);
    }

    @Test
    void callsAndRetriesOlderThanTheTtlNoLongerCount() {
        RetryBudget budget = RetryBudget.of(0.5, 0, Duration.ofSeconds(10), clock);
        budget.deposit();
        budget.deposit();
        assertThat(budget.tryWithdraw()).isTrue();
        assertThat(budget.tryWithdraw()).isFalse();

        clock.advance(Duration.ofSeconds(11));

        assertThat(budget.available()).isZero();
        budget.deposit();
        budget.deposit();
        assertThat(budget.tryWithdraw()).as("the old retry no longer uses the budget").isTrue();
    }

    @Test
    void availableCountsDownAsRetriesAreTaken() {
        RetryBudget budget = RetryBudget.of(0.2, 0, Duration.ofSeconds(10), clock);
        for (int i = 0; i < 20; i++) {
            budget.deposit();
        }
        assertThat(budget.available()).isEqualTo(4);

        budget.tryWithdraw();

        assertThat(budget.available()).isEqualTo(3);
    }

    @Test
    void rejectsInvalidSettingsNamingTheKeyAndValue() {
        assertThatThrownBy(() -> RetryBudget.of(-0.1, 0, Duration.ofSeconds(1), clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("budget.percent must be >= 0, but was -0.1");
        assertThatThrownBy(() -> RetryBudget.of(0.2, -1, Duration.ofSeconds(1), clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("budget.minPerSecond must be >= 0, but was -1");
        assertThatThrownBy(() -> RetryBudget.of(0.2, 1, Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("budget.ttl must be positive");
    }
}
