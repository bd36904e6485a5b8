package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.Trigger.Window;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A snapshot's counts are typed per trigger, stay visible while OPEN, and keep the admin API's flat shape. */
class BreakerCountsTest {

    private static final long FAST = 1_000L;

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:claude-sonnet-4", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutive5xx(3))
            .trigger(Trigger.failureRate(Window.ofCalls(20), 10, 0.5))
            .resetTimeout(Duration.ofMinutes(5))
            .build(), clock);

    private void record(Outcome outcome) {
        breaker.onOutcome(breaker.acquire(), outcome, FAST, RetryAfter.NONE);
    }

    @Test
    void aClosedBreakerShowsEachTriggersStreakAndWindowTyped() {
        record(Outcome.SUCCESS);
        record(Outcome.SERVER_ERROR);
        record(Outcome.SERVER_ERROR);

        BreakerCounts counts = breaker.snapshot().triggerCounts();

        assertThat(counts.streak("consecutive5xx")).contains(2L);
        assertThat(counts.window("failureRate")).contains(new BreakerCounts.Window("failureRate", 3, 2));
        assertThat(counts.probes()).isNull();
        assertThat(counts.streak("consecutive429")).as("a trigger the breaker does not have").isEmpty();
    }

    @Test
    void anOpenBreakerKeepsTheCountsThatTrippedIt() {
        for (int i = 0; i < 3; i++) {
            record(Outcome.SERVER_ERROR);
        }

        CircuitBreakerSnapshot snapshot = breaker.snapshot();

        assertThat(snapshot.state()).isEqualTo(CircuitState.OPEN);
        assertThat(snapshot.triggerCounts().streak("consecutive5xx")).contains(3L);
        assertThat(snapshot.triggerCounts().window("failureRate")).contains(new BreakerCounts.Window("failureRate", 3, 3));
    }

    @Test
    void aHalfOpenBreakerShowsItsProbes() {
        for (int i = 0; i < 3; i++) {
            record(Outcome.SERVER_ERROR);
        }
        clock.advance(Duration.ofMinutes(5));
        breaker.acquire();

        assertThat(breaker.snapshot().triggerCounts().probes()).isEqualTo(new BreakerCounts.Probes(0, 0));
    }

    @Test
    void theFlatFormIsTheShapeTheAdminApiWrites() {
        record(Outcome.SERVER_ERROR);

        assertThat(breaker.snapshot().counts()).containsExactly(
                Map.entry("consecutive5xx", 1L),
                Map.entry("failureRate.calls", 1L),
                Map.entry("failureRate.hits", 1L));
    }
}
