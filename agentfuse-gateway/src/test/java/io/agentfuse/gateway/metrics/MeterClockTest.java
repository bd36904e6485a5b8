package io.agentfuse.gateway.metrics;

import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class MeterClockTest {

    @Test
    void theMetersReadTheAgentfuseClockTheyWereMadeWith() {
        ManualClock clock = new ManualClock();
        MeterClock meters = new MeterClock(clock);

        clock.advance(Duration.ofMinutes(2));

        assertThat(meters.wallTime()).isEqualTo(clock.epochMillis());
        assertThat(meters.monotonicTime()).isEqualTo(clock.nanoTime());
    }
}
