package io.agentfuse.core.contract;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** What operators see of a breaker, from outside the package: the snapshot and the events. */
class OperatorViewContractTest {

    private final ManualClock clock = new ManualClock();

    private static void fail(CircuitBreaker breaker) {
        breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, 1, -1);
    }

    @Test
    void aUserLedBreakerReportsNoOpenUntilBeforeOrAfterItsResetTimeout() {
        CircuitBreaker breaker = CircuitBreaker.of("permission:shell", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(5)).autoHalfOpen(false).build(), clock);
        fail(breaker);

        assertThat(breaker.snapshot().state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().openUntil()).as("only the user reopens it: no instant to promise").isNull();
        clock.advance(Duration.ofHours(1));
        assertThat(breaker.snapshot().state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().openUntil()).as("never a stale instant").isNull();
    }

    @Test
    void anAutomaticBreakerStillReportsWhenItReopens() {
        CircuitBreaker breaker = CircuitBreaker.of("model:a", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(5)).build(), clock);
        fail(breaker);

        assertThat(breaker.snapshot().openUntil())
                .isEqualTo(Instant.ofEpochMilli(ManualClock.DEFAULT_EPOCH_MILLIS).plus(Duration.ofMinutes(5)));
    }

    @Test
    void aLostProbeWrittenOffIsPublishedAsProbeExpired() {
        CircuitBreaker breaker = CircuitBreaker.of("model:a", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofSeconds(30))
                .probeTimeout(Duration.ofMinutes(2)).build(), clock);
        List<StateTransition> events = new ArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(StateTransition event) {
                events.add(event);
            }
        });
        fail(breaker);
        clock.advance(Duration.ofSeconds(30));
        long probe = breaker.acquire(); // the probe goes out and never answers
        assertThat(probe).isNotEqualTo(CircuitBreaker.NOT_PERMITTED);

        clock.advance(Duration.ofMinutes(2));
        long next = breaker.acquire();

        assertThat(next).as("a fresh probe after the lost one").isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
        assertThat(events).extracting(StateTransition::from, StateTransition::to, StateTransition::reason).containsExactly(
                tuple(CircuitState.CLOSED, CircuitState.OPEN, events.get(0).reason()),
                tuple(CircuitState.OPEN, CircuitState.HALF_OPEN, "resetTimeout elapsed"),
                tuple(CircuitState.HALF_OPEN, CircuitState.HALF_OPEN, "probe expired without an answer"));
    }
}
