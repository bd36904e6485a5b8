package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instances of one breaker sharing a {@link LoopbackStateStores} on one {@link ManualClock}: open
 * for {@link #OPEN} after three server errors, probes written off after {@link #PROBE_TIMEOUT}.
 */
final class TrippedFleet {

    static final String MODEL = "model:probe";
    static final Duration OPEN = Duration.ofMinutes(5);
    static final Duration PROBE_TIMEOUT = Duration.ofMinutes(2);
    /** A call's duration far below every slow-call threshold. */
    static final long FAST = Duration.ofMillis(20).toNanos();

    final ManualClock clock = new ManualClock();
    final LoopbackStateStores store = new LoopbackStateStores(clock);

    /** One more instance whose breaker lets {@code halfOpenRequests} probes through. */
    CircuitBreaker instance(int halfOpenRequests) {
        return CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(CircuitBreakerConfig.builder()
                        .trigger(Trigger.consecutive5xx(3))
                        .resetTimeout(OPEN)
                        .probeTimeout(PROBE_TIMEOUT)
                        .halfOpenRequests(halfOpenRequests)
                        .build())
                .stateStore(store.connect())
                .build()
                .breaker(MODEL);
    }

    /** Three instances whose breaker tripped on the first and whose open time has just ended. */
    List<CircuitBreaker> afterItsOpenTime(int halfOpenRequests) {
        List<CircuitBreaker> fleet = List.of(instance(halfOpenRequests), instance(halfOpenRequests), instance(halfOpenRequests));
        store.deliver();
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(fleet.get(0), Outcome.SERVER_ERROR, FAST);
        }
        store.deliver();
        assertThat(fleet).allSatisfy(breaker -> assertThat(breaker.state()).isEqualTo(CircuitState.OPEN));
        clock.advance(OPEN);
        return fleet;
    }
}
