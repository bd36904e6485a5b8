package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Durations come from the clock's coarse view only when every duration threshold is far coarser than its tick. */
class CoarseCallClockTest {

    private final ManualClock exact = new ManualClock();
    private final ManualClock coarseReadings = new ManualClock();

    /** A clock whose coarse view is another clock with a 10 ms tick, as the system clock's is. */
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
            return new Clock() {
                @Override
                public long nanoTime() {
                    return coarseReadings.nanoTime();
                }

                @Override
                public long epochMillis() {
                    return coarseReadings.epochMillis();
                }

                @Override
                public long tickNanos() {
                    return Duration.ofMillis(10).toNanos();
                }
            };
        }
    };

    @Test
    void theSeedsSixtySecondThresholdIsTimedOnTheCoarseClock() {
        CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.defaults(), clock);
        coarseReadings.advance(Duration.ofSeconds(61));

        long start = breaker.callClock().nanoTime();

        assertThat(start).isEqualTo(coarseReadings.nanoTime()).isNotEqualTo(exact.nanoTime());
    }

    @Test
    void aThresholdNearTheTickIsTimedOnTheExactClock() {
        CircuitBreaker breaker = CircuitBreaker.of("tool:fast", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveTimeouts(3, Duration.ofMillis(200))).build(), clock);

        assertThat(breaker.callClock()).isSameAs(clock);
    }

    @Test
    void aShortTimeWindowIsTimedOnTheExactClock() {
        CircuitBreaker breaker = CircuitBreaker.of("tool:fast", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)))
                .trigger(Trigger.failureRate(Trigger.Window.ofDuration(Duration.ofMillis(500)), 5, 0.5)).build(), clock);

        assertThat(breaker.callClock()).isSameAs(clock);
    }

    @Test
    void aManualClockIsExactAndTimesEverything() {
        CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.defaults(), exact);

        assertThat(breaker.callClock()).isSameAs(exact);
    }

    @Test
    void theSystemClocksCoarseViewIsOneSharedTickingClock() {
        assertThat(Clock.system().coarse()).isSameAs(Clock.coarseSystem());
        assertThat(Clock.coarseSystem().tickNanos()).isPositive();
        assertThat(Clock.coarseSystem().nanoTime()).isLessThanOrEqualTo(System.nanoTime());
        // Kept at the tick, like the monotonic reading; within a minute whatever the wall clock did since.
        assertThat(Clock.coarseSystem().epochMillis()).isCloseTo(System.currentTimeMillis(), within(60_000L));
    }
}
