package io.agentfuse.core;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyEstimateTest {

    private static final long MS = 1_000_000L;

    private final ManualClock clock = new ManualClock();

    @Test
    void nothingIsKnownBeforeFiveSamples() {
        LatencyEstimate latency = LatencyEstimate.of(clock);
        for (int i = 0; i < 4; i++) {
            latency.record(100 * MS);
        }

        assertThat(latency.medianNanos()).isEqualTo(-1L);
        assertThat(latency.p95Nanos()).isEqualTo(-1L);

        latency.record(100 * MS);

        assertThat(latency.medianNanos()).isEqualTo(100 * MS);
    }

    @Test
    void theMedianAndP95AreTakenByNearestRank() {
        LatencyEstimate latency = LatencyEstimate.of(clock);
        for (int i = 1; i <= 20; i++) {
            latency.record(i * MS);
        }

        assertThat(latency.medianNanos()).isEqualTo(10 * MS);
        assertThat(latency.p95Nanos()).isEqualTo(19 * MS);
        assertThat(latency.recentSamples()).isEqualTo(20);
    }

    @Test
    void onlyTheLastSamplesCount() {
        LatencyEstimate latency = LatencyEstimate.of(clock, 8, Duration.ofMinutes(5));
        for (int i = 0; i < 8; i++) {
            latency.record(10_000 * MS);
        }

        for (int i = 0; i < 8; i++) {
            latency.record(10 * MS);
        }

        assertThat(latency.medianNanos()).isEqualTo(10 * MS);
        assertThat(latency.recentSamples()).isEqualTo(8);
    }

    @Test
    void samplesOlderThanTheMaximumAgeNoLongerCount() {
        LatencyEstimate latency = LatencyEstimate.of(clock, 64, Duration.ofMinutes(5));
        for (int i = 0; i < 5; i++) {
            latency.record(100 * MS);
        }
        assertThat(latency.medianNanos()).isEqualTo(100 * MS);

        clock.advance(Duration.ofMinutes(6));

        assertThat(latency.medianNanos()).as("a step called rarely is not judged by old answers").isEqualTo(-1L);
        assertThat(latency.recentSamples()).isZero();
    }

    @Test
    void aDurationThatWasNotMeasuredIsNoSample() {
        LatencyEstimate latency = LatencyEstimate.of(clock);

        latency.record(-1L);

        assertThat(latency.recentSamples()).isZero();
    }

    @Test
    void rejectsAWindowThatIsNoPowerOfTwoNamingTheValue() {
        assertThatThrownBy(() -> LatencyEstimate.of(clock, 48, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("samples must be a power of two, but was 48");
    }

    @Property
    void aQuantileIsASampleThatAtLeastItsShareOfTheSamplesDoNotExceed(
            @ForAll @Size(min = 5, max = 64) List<@LongRange(min = 0, max = 1_000_000_000L) Long> samples,
            @ForAll @DoubleRange(min = 0.01, max = 1.0) double quantile) {
        LatencyEstimate latency = LatencyEstimate.of(new ManualClock());
        samples.forEach(latency::record);

        long value = latency.quantileNanos(quantile);

        assertThat(samples).contains(value);
        long atMost = samples.stream().filter(sample -> sample <= value).count();
        long below = samples.stream().filter(sample -> sample < value).count();
        assertThat((double) atMost).isGreaterThanOrEqualTo(quantile * samples.size() - 1e-9);
        assertThat((double) below).isLessThan(quantile * samples.size());
    }

    @Property
    void theRankIsTheNearestRankAndAlwaysAnIndexOfTheSamples(@ForAll @DoubleRange(min = 0.01, max = 1.0) double quantile,
                                                              @ForAll @IntRange(min = 1, max = 1024) int count) {
        int rank = LatencyEstimate.rank(quantile, count);

        assertThat(rank).isBetween(0, count - 1);
        assertThat(rank + 1).isEqualTo((int) Math.max(1, Math.ceil(quantile * count)));
    }
}
