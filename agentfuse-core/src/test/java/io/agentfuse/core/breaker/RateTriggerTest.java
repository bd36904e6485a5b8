package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import io.agentfuse.core.breaker.Trigger.Window;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate triggers: a share of failures (or slow calls) above a threshold, over a window. */
class RateTriggerTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();
    private static final long SLOW = Duration.ofSeconds(3).toNanos();

    private final ManualClock clock = new ManualClock();

    private CircuitBreaker breakerWith(Trigger trigger) {
        return CircuitBreaker.of("model:gpt-4o", CircuitBreakerConfig.builder().trigger(trigger).build(), clock);
    }

    private static void record(CircuitBreaker breaker, Outcome outcome, int times) {
        for (int i = 0; i < times; i++) {
            Unstamped.outcome(breaker, outcome, FAST);
        }
    }

    // ---------------------------------------------------------------- failureRate, count-based

    private CircuitBreaker seedFailureRate() {
        return breakerWith(Trigger.failureRate(Window.ofCalls(20), 10, 0.5));
    }

    @Test
    void failureRateDoesNotOpenBeforeMinCalls() {
        CircuitBreaker breaker = seedFailureRate();

        record(breaker, Outcome.SERVER_ERROR, 9);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.SERVER_ERROR, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("failureRate: 10 of 10 calls (100.0% > 50.0%)");
    }

    @Test
    void failureRateMustBeStrictlyAboveTheThreshold() {
        CircuitBreaker breaker = seedFailureRate();

        record(breaker, Outcome.SUCCESS, 10);
        record(breaker, Outcome.SERVER_ERROR, 10);
        assertThat(breaker.state()).as("10 of 20 is exactly 50%").isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.SERVER_ERROR, 1);
        assertThat(breaker.state()).as("11 of the last 20 is 55%").isEqualTo(CircuitState.OPEN);
    }

    @Test
    void failuresOlderThanTheLastTwentyCallsDoNotCount() {
        CircuitBreaker breaker = seedFailureRate();
        record(breaker, Outcome.SUCCESS, 10);
        record(breaker, Outcome.SERVER_ERROR, 10);
        record(breaker, Outcome.SUCCESS, 10);

        record(breaker, Outcome.SERVER_ERROR, 10);
        assertThat(breaker.state()).as("each new failure pushed an old one out: still 10 of the last 20")
                .isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.SERVER_ERROR, 1);
        assertThat(breaker.state()).as("11 of the last 20").isEqualTo(CircuitState.OPEN);
    }

    @Test
    void clientErrorsAreNotCallsOfTheWindow() {
        CircuitBreaker breaker = seedFailureRate();

        record(breaker, Outcome.CLIENT_ERROR, 30);
        record(breaker, Outcome.SERVER_ERROR, 9);

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aSuccessThatBringsTheWindowToMinCallsOpensWhenTheShareIsAboveThreshold() {
        // Regression: only failures used to evaluate the window, so 9 failures and 1 success
        // (90 % of 10 calls) left the breaker closed.
        CircuitBreaker breaker = seedFailureRate();

        record(breaker, Outcome.SERVER_ERROR, 9);
        record(breaker, Outcome.SUCCESS, 1);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("failureRate: 9 of 10 calls (90.0% > 50.0%)");
    }

    @Test
    void theRateReasonDoesNotDependOnTheDefaultLocale() {
        // Regression: the reason was formatted in the JVM's locale ("100,0%" in Germany).
        Locale original = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            CircuitBreaker breaker = seedFailureRate();

            record(breaker, Outcome.SERVER_ERROR, 10);

            assertThat(breaker.snapshot().reason()).isEqualTo("failureRate: 10 of 10 calls (100.0% > 50.0%)");
        } finally {
            Locale.setDefault(original);
        }
    }

    // ---------------------------------------------------------------- failureRate, time-based

    private CircuitBreaker failureRateOverOneMinute() {
        return breakerWith(Trigger.failureRate(Window.ofDuration(Duration.ofSeconds(60)), 5, 0.5));
    }

    @Test
    void failuresWithinTheTimeWindowAddUp() {
        CircuitBreaker breaker = failureRateOverOneMinute();
        record(breaker, Outcome.TIMEOUT, 4);

        clock.advance(Duration.ofSeconds(59));
        record(breaker, Outcome.TIMEOUT, 1);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void failuresOlderThanTheTimeWindowSlideOut() {
        CircuitBreaker breaker = failureRateOverOneMinute();
        record(breaker, Outcome.TIMEOUT, 4);

        clock.advance(Duration.ofSeconds(60));
        record(breaker, Outcome.TIMEOUT, 4);
        assertThat(breaker.state()).as("only 4 calls in the last minute").isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.TIMEOUT, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void successesOlderThanTheTimeWindowStopDilutingTheShare() {
        CircuitBreaker breaker = failureRateOverOneMinute();
        record(breaker, Outcome.SUCCESS, 20);
        clock.advance(Duration.ofSeconds(30));
        record(breaker, Outcome.SERVER_ERROR, 6);
        assertThat(breaker.state()).as("6 of 26 calls").isEqualTo(CircuitState.CLOSED);

        clock.advance(Duration.ofSeconds(30));
        record(breaker, Outcome.SERVER_ERROR, 1);

        assertThat(breaker.state()).as("7 of 7 calls in the last minute").isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSuccessThatBringsTheTimeWindowToMinCallsOpensWhenTheShareIsAboveThreshold() {
        // Regression: as for count windows, a success completing minCalls was never evaluated.
        CircuitBreaker breaker = failureRateOverOneMinute();

        record(breaker, Outcome.TIMEOUT, 4);
        record(breaker, Outcome.SUCCESS, 1);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("failureRate: 4 of 5 calls (80.0% > 50.0%)");
    }

    // ---------------------------------------------------------------- slowCallRate

    @Test
    void slowCallRateOpensWhenMoreThanHalfTheCallsAreSlow() {
        CircuitBreaker breaker = breakerWith(
                Trigger.slowCallRate(Window.ofCalls(10), 5, 0.5, Duration.ofSeconds(2)));

        Unstamped.success(breaker, FAST);
        Unstamped.success(breaker, FAST);
        Unstamped.success(breaker, SLOW);
        Unstamped.success(breaker, SLOW);
        assertThat(breaker.state()).as("4 calls, fewer than minCalls").isEqualTo(CircuitState.CLOSED);

        Unstamped.success(breaker, SLOW);
        assertThat(breaker.state()).as("3 of 5 calls slow").isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("slowCallRate: 3 of 5 calls (60.0% > 50.0%)");
    }

    @Test
    void slowCallRateCountsSlowFailuresToo() {
        CircuitBreaker breaker = breakerWith(
                Trigger.slowCallRate(Window.ofCalls(10), 4, 0.5, Duration.ofSeconds(2)));

        Unstamped.success(breaker, FAST);
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, SLOW);
        Unstamped.outcome(breaker, Outcome.TIMEOUT, SLOW);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, SLOW);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void callsExactlyAtTheSlowThresholdAreNotSlow() {
        CircuitBreaker breaker = breakerWith(
                Trigger.slowCallRate(Window.ofCalls(10), 5, 0.5, Duration.ofSeconds(2)));

        for (int i = 0; i < 10; i++) {
            Unstamped.success(breaker, Duration.ofSeconds(2).toNanos());
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
}
