package io.agentfuse.gateway.metrics;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Latency buckets: every duration from 4 µs on lies below its bucket's bound, and the bound is at most 25 % above it. */
class LatencyBucketsTest {

    @Property
    void aBucketsBoundIsAboveItsDurationsByAtMostAQuarter(@ForAll @LongRange(min = 4_000, max = 100_000_000_000L) long nanos) {
        long micros = nanos / 1_000;
        long upper = LatencyBuckets.upperBoundMicros(LatencyBuckets.index(nanos));

        assertThat(upper).isGreaterThan(micros);
        assertThat((double) upper).isLessThanOrEqualTo(micros * 1.25);
    }

    @Property
    void longerDurationsNeverLandInLowerBuckets(@ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long a,
                                                @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long b) {
        long shorter = Math.min(a, b);
        long longer = Math.max(a, b);

        assertThat(LatencyBuckets.index(longer)).isGreaterThanOrEqualTo(LatencyBuckets.index(shorter));
        assertThat(LatencyBuckets.index(longer)).isLessThan(LatencyBuckets.COUNT);
    }

    @Test
    void durationsBeyondTheLastBoundShareTheLastBucket() {
        assertThat(LatencyBuckets.index(Long.MAX_VALUE)).isEqualTo(LatencyBuckets.COUNT - 1);
        assertThat(LatencyBuckets.index(-5)).isZero();
    }

    @Test
    void aQuantileIsReadFromTheCumulativeCountsAndCappedByTheMaximum() {
        long[] counts = new long[LatencyBuckets.COUNT];
        counts[LatencyBuckets.index(1_000_000)] = 9;
        counts[LatencyBuckets.index(100_000_000)] = 1;

        assertThat(LatencyBuckets.quantileMicros(counts, 10, 0.5, 100_000))
                .isEqualTo(LatencyBuckets.upperBoundMicros(LatencyBuckets.index(1_000_000)));
        assertThat(LatencyBuckets.quantileMicros(counts, 10, 0.95, 100_000)).isEqualTo(100_000);
        assertThat(LatencyBuckets.quantileMicros(new long[LatencyBuckets.COUNT], 0, 0.5, 0)).isZero();
    }
}
