package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class MeterClockTest {

    /** Wall time from one clock, monotonic time from another: which view serves which reading shows. */
    private final ManualClock exact = new ManualClock();
    private final ManualClock coarseReadings = new ManualClock();
    private final Clock clock = new Clock() {
        @Override
        public long nanoTime() {
            return exact.nanoTime();
        }

        @Override
        public long epochMillis() {
            return exact.epochMillis();
        }

        @Override
        public Clock coarse() {
            return coarseReadings;
        }
    };

    @Test
    void theWallTimeComesFromTheCoarseViewAndTheMonotonicTimeFromTheExactClock() {
        MeterClock meters = new MeterClock(clock);
        coarseReadings.advance(Duration.ofMinutes(2));
        exact.advance(Duration.ofMillis(5));

        assertThat(meters.wallTime()).isEqualTo(coarseReadings.epochMillis()).isNotEqualTo(exact.epochMillis());
        assertThat(meters.monotonicTime()).isEqualTo(exact.nanoTime()).isNotEqualTo(coarseReadings.nanoTime());
    }
}
