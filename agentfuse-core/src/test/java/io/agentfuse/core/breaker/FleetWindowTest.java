package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Rate triggers over a fleet: every instance's window adds up, and the sum trips the breaker everywhere. */
class FleetWindowTest {

    private static final String MODEL = "model:gpt-4o-mini";
    private static final long FAST = Duration.ofMillis(20).toNanos();

    private final ManualClock clock = new ManualClock();
    private final LoopbackStateStores store = new LoopbackStateStores(clock);
    private final CircuitBreakerRegistry a = instance();
    private final CircuitBreakerRegistry b = instance();

    private CircuitBreakerRegistry instance() {
        return CircuitBreakerRegistry.builder().clock(clock).stateStore(store.connect()).build();
    }

    private static void record(CircuitBreaker breaker, Outcome outcome, int times) {
        for (int i = 0; i < times; i++) {
            Unstamped.outcome(breaker, outcome, FAST);
        }
    }

    @Test
    void aFailureRateNoInstanceReachesAloneTripsTheBreakerAcrossTheFleet() {
        CircuitBreakerConfig rate = CircuitBreakerConfig.builder()
                .trigger(Trigger.failureRate(Trigger.Window.ofCalls(20), 10, 0.5))
                .resetTimeout(Duration.ofMinutes(5))
                .build();
        CircuitBreaker onA = a.breaker(MODEL, rate);
        CircuitBreaker onB = b.breaker(MODEL, rate);
        for (CircuitBreaker breaker : List.of(onA, onB)) {
            record(breaker, Outcome.SERVER_ERROR, 4);
            record(breaker, Outcome.SUCCESS, 2);
        }
        assertThat(onA.state()).as("6 calls each, under minCalls 10").isEqualTo(CircuitState.CLOSED);

        store.windowsDue();
        store.deliver();

        assertThat(onA.state()).isEqualTo(CircuitState.OPEN);
        assertThat(onB.state()).isEqualTo(CircuitState.OPEN);
        assertThat(onA.snapshot().reason() + onB.snapshot().reason()).contains("failureRate across the fleet: 8 of 12 calls");
    }

    @Test
    void aFleetUnderTheThresholdStaysClosed() {
        CircuitBreakerConfig rate = CircuitBreakerConfig.builder()
                .trigger(Trigger.failureRate(Trigger.Window.ofCalls(20), 10, 0.5))
                .build();
        CircuitBreaker onA = a.breaker(MODEL, rate);
        CircuitBreaker onB = b.breaker(MODEL, rate);
        record(onA, Outcome.SERVER_ERROR, 3);
        record(onA, Outcome.SUCCESS, 3);
        record(onB, Outcome.SERVER_ERROR, 2);
        record(onB, Outcome.SUCCESS, 4);

        store.windowsDue();
        store.deliver();

        assertThat(onA.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
    }
}
