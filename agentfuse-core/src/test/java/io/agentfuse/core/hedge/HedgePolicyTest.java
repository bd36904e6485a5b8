package io.agentfuse.core.hedge;

import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HedgePolicyTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void aFixedDelayIsTheDelayWhateverTheLatency() {
        HedgePolicy policy = HedgePolicy.builder().after(Duration.ofSeconds(2)).build();

        assertThat(policy.delayNanos(null)).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(policy.isAdaptive()).isFalse();
        assertThat(policy.describeDelay()).isEqualTo("PT2S");
    }

    @Test
    void anAdaptiveDelayIsUnknownUntilTheStepHasEnoughSamples() {
        HedgePolicy policy = HedgePolicy.builder().afterP95().build();
        LatencyEstimate latency = LatencyEstimate.of(clock);
        for (int i = 1; i < LatencyEstimate.MIN_SAMPLES; i++) {
            latency.record(i * 1_000_000L);
        }
        assertThat(policy.delayNanos(latency)).isEqualTo(-1L);
        assertThat(policy.delayNanos(null)).isEqualTo(-1L);

        latency.record(100_000_000L);

        assertThat(policy.delayNanos(latency)).isEqualTo(100_000_000L);
        assertThat(policy.describeDelay()).isEqualTo("p95");
    }

    @Test
    void theDefaultsAreP95WithoutABudgetLimit() {
        HedgePolicy policy = HedgePolicy.builder().build();

        assertThat(policy.isAdaptive()).isTrue();
        assertThat(policy.afterQuantile()).isEqualTo(0.95);
        assertThat(policy.budget()).isSameAs(HedgeBudget.unlimited());
    }

    @Test
    void rejectsANegativeDelayOrAQuantileOutsideZeroToOneNamingTheValue() {
        assertThatThrownBy(() -> HedgePolicy.builder().after(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after must not be negative");
        assertThatThrownBy(() -> HedgePolicy.builder().afterQuantile(1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("afterQuantile must be in (0, 1), but was 1.0");
    }
}
