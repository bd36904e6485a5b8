package io.agentfuse.core.breaker;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A server's Retry-After may set or extend a breaker's open time, never shorten it. */
class RetryAfterOpenTimeTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();
    private static final Duration RESET = Duration.ofMinutes(5);

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:claude-sonnet-4", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutive429(2))
            .resetTimeout(RESET)
            .build(), clock);

    private void tripWithRetryAfter(Duration retryAfter) {
        Unstamped.outcome(breaker, Outcome.RATE_LIMITED, FAST);
        Unstamped.outcome(breaker, Outcome.RATE_LIMITED, FAST, retryAfter.toNanos());
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    /** Asserts that the breaker rejects until 1 ms before {@code sinceStart} and admits a probe at it. */
    private void assertOpenUntil(Duration sinceStart) {
        long elapsed = clock.nanoTime();
        clock.advanceNanos(sinceStart.toNanos() - elapsed - 1_000_000);
        assertThat(breaker.tryAcquirePermission()).as("rejected 1 ms before " + sinceStart).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquirePermission()).as("probe admitted at " + sinceStart).isTrue();
    }

    @Test
    void aBogusRetryAfterKeepsTheBreakerOpenNoLongerThanMaxRetryAfter() {
        // Given a server that asks for three years of quiet
        tripWithRetryAfter(Duration.ofDays(3 * 365));

        // Then the breaker honours it only up to maxRetryAfter (1 hour by default)
        assertThat(breaker.rejection().retryAfter()).contains(Duration.ofHours(1));
        assertOpenUntil(Duration.ofHours(1));
    }

    @Test
    void aTripWithALongerRetryAfterStaysOpenThatLong() {
        tripWithRetryAfter(Duration.ofMinutes(10));

        assertThat(breaker.rejection().retryAfter()).contains(Duration.ofMinutes(10));
        assertOpenUntil(Duration.ofMinutes(10));
    }

    @Test
    void aTripWithAShorterRetryAfterStaysOpenForTheResetTimeout() {
        tripWithRetryAfter(Duration.ofMinutes(1));

        assertOpenUntil(RESET);
    }

    @Test
    void aLongerRetryAfterWhileOpenExtendsTheOpenTime() {
        tripWithRetryAfter(Duration.ZERO);
        clock.advance(Duration.ofMinutes(1));

        Unstamped.outcome(breaker, Outcome.RATE_LIMITED, FAST, Duration.ofMinutes(10).toNanos());

        assertThat(breaker.rejection().retryAfter()).contains(Duration.ofMinutes(10));
        assertOpenUntil(Duration.ofMinutes(11));
    }

    @Test
    void aShorterRetryAfterWhileOpenNeverShortensTheOpenTime() {
        tripWithRetryAfter(Duration.ZERO);
        clock.advance(Duration.ofMinutes(1));

        Unstamped.outcome(breaker, Outcome.RATE_LIMITED, FAST, Duration.ofSeconds(10).toNanos());

        assertThat(breaker.rejection().retryAfter()).contains(Duration.ofMinutes(4));
        assertOpenUntil(RESET);
    }

    @Test
    void theRetryAfterHeaderOfAnErrorWhileOpenExtendsTheOpenTime() {
        tripWithRetryAfter(Duration.ZERO);
        clock.advance(Duration.ofMinutes(4));

        Unstamped.error(breaker, HttpStatusException.builder(429).body("rate limited").retryAfter("120").build(), FAST);

        assertOpenUntil(Duration.ofMinutes(6));
    }

    @Test
    void theRetryAfterHeaderOfTheErrorThatTripsSetsTheOpenTime() {
        Unstamped.error(breaker, new HttpStatusException(429), FAST);

        Unstamped.error(breaker, HttpStatusException.builder(429).retryAfter("Thu, 01 Jan 2026 00:15:00 GMT").build(), FAST);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertOpenUntil(Duration.ofMinutes(15));
    }

    @Test
    void aFailedProbeWithRetryAfterReopensForThatLong() {
        tripWithRetryAfter(Duration.ZERO);
        clock.advance(RESET);
        assertThat(breaker.tryAcquirePermission()).isTrue();

        Unstamped.error(breaker, HttpStatusException.builder(529).body("overloaded").retryAfterMs("1200000").build(), FAST);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.rejection().retryAfter()).contains(Duration.ofMinutes(20));
    }
}
