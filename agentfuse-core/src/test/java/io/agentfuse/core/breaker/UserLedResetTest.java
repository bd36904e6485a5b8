package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** autoHalfOpen=false: the clock never reopens the breaker; only an explicit probe does. */
class UserLedResetTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();
    private static final Duration TEN_YEARS = Duration.ofDays(3650);

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("permission:shell", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3))
            .autoHalfOpen(false)
            .build(), clock);

    @BeforeEach
    void trip() {
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(breaker, Outcome.ERROR, FAST);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void staysOpenForeverOnTheClock() {
        clock.advance(TEN_YEARS);

        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void theRejectionPromisesNoRetryTime() {
        Map<String, Object> rejection = breaker.execute(() -> Map.of(), Rejection::toMap);

        assertThat(breaker.rejection().retryAfter()).isEmpty();
        assertThat(breaker.rejection().openUntil()).isEmpty();
        assertThat(rejection).contains(entry("error", "CIRCUIT_OPEN"), entry("retryAfter", null));
    }

    @Test
    void transitionToHalfOpenLetsExactlyOneProbeThrough() {
        assertThat(breaker.transitionToHalfOpen()).isTrue();

        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isFalse();
    }

    @Test
    void aSuccessfulProbeCloses() {
        breaker.transitionToHalfOpen();
        String answer = breaker.executeSupplier(() -> "approved action ran");

        assertThat(answer).isEqualTo("approved action ran");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aFailedProbeReopensAndStaysOpenForever() {
        breaker.transitionToHalfOpen();
        assertThat(breaker.tryAcquirePermission()).isTrue();

        Unstamped.outcome(breaker, Outcome.ERROR, FAST);
        clock.advance(TEN_YEARS);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.tryAcquirePermission()).isFalse();
    }

    @Test
    void transitionToHalfOpenDoesNothingUnlessOpen() {
        breaker.transitionToHalfOpen();

        assertThat(breaker.transitionToHalfOpen()).as("already half-open").isFalse();
        breaker.reset();
        assertThat(breaker.transitionToHalfOpen()).as("closed").isFalse();
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
}
