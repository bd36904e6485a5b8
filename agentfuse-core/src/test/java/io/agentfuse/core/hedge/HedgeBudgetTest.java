package io.agentfuse.core.hedge;

import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HedgeBudgetTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void tenPercentAllowsOneHedgeInTenRequests() {
        HedgeBudget budget = HedgeBudget.of(0.10, Duration.ofSeconds(10), clock);
        for (int i = 0; i < 9; i++) {
            budget.countRequest();
        }
        assertThat(budget.tryHedge()).as("nine requests hold no tenth").isFalse();

        budget.countRequest();

        assertThat(budget.tryHedge()).isTrue();
        assertThat(budget.tryHedge()).isFalse();
    }

    @Test
    void requestsAndHedgesOlderThanTheWindowNoLongerCount() {
        HedgeBudget budget = HedgeBudget.of(0.5, Duration.ofSeconds(10), clock);
        budget.countRequest();
        budget.countRequest();
        assertThat(budget.tryHedge()).isTrue();

        clock.advance(Duration.ofSeconds(11));

        assertThat(budget.available()).isZero();
        budget.countRequest();
        budget.countRequest();
        assertThat(budget.tryHedge()).as("the old hedge no longer uses the budget").isTrue();
    }

    @Test
    void anUnlimitedBudgetAlwaysAllowsAHedge() {
        HedgeBudget unlimited = HedgeBudget.unlimited();

        assertThat(unlimited.tryHedge()).isTrue();
        assertThat(unlimited.available()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void rejectsAShareOutsideZeroToOneNamingTheValue() {
        assertThatThrownBy(() -> HedgeBudget.of(0.0, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxShare must be in (0, 1], but was 0.0");
        assertThatThrownBy(() -> HedgeBudget.of(1.5, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxShare must be in (0, 1], but was 1.5");
    }
}
