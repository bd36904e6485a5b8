package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import io.agentfuse.core.breaker.Trigger.Window;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Bad values fail at build time with a message that names the key and the value. */
class CircuitBreakerConfigTest {

    @Test
    void halfOpenRequestsMustBeAtLeastOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CircuitBreakerConfig.builder().halfOpenRequests(0))
                .withMessage("halfOpenRequests must be >= 1, but was 0");
    }

    @Test
    void successesToCloseMayNotExceedHalfOpenRequests() {
        CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.builder().halfOpenRequests(1).successesToClose(2);

        assertThatIllegalArgumentException()
                .isThrownBy(builder::build)
                .withMessage("successesToClose must be <= halfOpenRequests (1), but was 2");
    }

    @Test
    void successesToCloseMustBeAtLeastOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CircuitBreakerConfig.builder().successesToClose(0))
                .withMessage("successesToClose must be >= 1, but was 0");
    }

    @Test
    void resetTimeoutMustBePositive() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CircuitBreakerConfig.builder().resetTimeout(Duration.ZERO))
                .withMessage("resetTimeout must be positive, but was PT0S");
    }

    @Test
    void probeTimeoutMustBePositive() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CircuitBreakerConfig.builder().probeTimeout(Duration.ofSeconds(-1)))
                .withMessage("probeTimeout must be positive, but was PT-1S");
    }

    @Test
    void durationsBeyondAHundredYearsAreRejectedAtBuildTime() {
        // Regression: "forever" passed validation, then overflowed to an ArithmeticException
        // out of onError when the breaker tripped (or probed), and the breaker never opened.
        Duration forever = ChronoUnit.FOREVER.getDuration();

        assertThatIllegalArgumentException()
                .isThrownBy(() -> CircuitBreakerConfig.builder().resetTimeout(forever))
                .withMessage("resetTimeout must be at most 100 years, but was " + forever);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CircuitBreakerConfig.builder().probeTimeout(Duration.ofDays(365L * 300)))
                .withMessageStartingWith("probeTimeout must be at most 100 years");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OpenBackoff(2.0, forever, 0.0))
                .withMessage("openBackoff.maxOpenTime must be at most 100 years, but was " + forever);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Window.ofDuration(forever))
                .withMessageStartingWith("window must be at most 100 years");
    }

    @Test
    void aHundredYearsIsStillAValidOpenTime() {
        ManualClock clock = new ManualClock();
        CircuitBreaker breaker = CircuitBreaker.of("tool:archive/restore", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1))
                .resetTimeout(Duration.ofDays(36_500))
                .build(), clock);

        Unstamped.outcome(breaker, Outcome.ERROR, 1_000);
        clock.advance(Duration.ofDays(36_500).minusMillis(1));

        assertThat(breaker.tryAcquirePermission()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquirePermission()).isTrue();
    }

    @Test
    void failureRateThresholdMustBeAFractionBelowOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.failureRate(Window.ofCalls(20), 10, 1.5))
                .withMessage("failureRate.threshold must be in [0, 1), but was 1.5");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.failureRate(Window.ofCalls(20), 10, 1.0))
                .withMessage("failureRate.threshold must be in [0, 1), but was 1.0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.failureRate(Window.ofCalls(20), 10, -0.1))
                .withMessage("failureRate.threshold must be in [0, 1), but was -0.1");
    }

    @Test
    void slowCallRateThresholdMustBeAFractionBelowOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.slowCallRate(Window.ofCalls(20), 10, Double.NaN, Duration.ofSeconds(1)))
                .withMessage("slowCallRate.threshold must be in [0, 1), but was NaN");
    }

    @Test
    void minCallsMayNotExceedACountWindow() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.failureRate(Window.ofCalls(20), 30, 0.5))
                .withMessage("failureRate.minCalls must be <= window (20), but was 30");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.slowCallRate(Window.ofCalls(5), 6, 0.5, Duration.ofSeconds(1)))
                .withMessage("slowCallRate.minCalls must be <= window (5), but was 6");
    }

    @Test
    void aWindowIsEitherCallsOrADurationNotBoth() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Window(20, Duration.ofSeconds(60)))
                .withMessageStartingWith("window must be either a positive count of calls or a duration, but was");
    }

    @Test
    void aWindowIsEitherCallsOrADurationNotNeither() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Window(0, null))
                .withMessage("window must be either a positive count of calls or a duration, but was 0");
    }

    @Test
    void windowSizesMustBePositive() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Window.ofCalls(0))
                .withMessage("window must be >= 1 call, but was 0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Window.ofDuration(Duration.ZERO))
                .withMessage("window must be positive, but was PT0S");
    }

    @Test
    void streakCountsMustBeAtLeastOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.consecutiveErrors(0))
                .withMessage("consecutiveErrors.count must be >= 1, but was 0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.consecutiveTimeouts(3, Duration.ZERO))
                .withMessage("consecutiveTimeouts.slowerThan must be positive, but was PT0S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Trigger.tokenOveruse(0))
                .withMessage("tokenOveruse.maxTokensPerCall must be >= 1, but was 0");
    }

    @Test
    void openBackoffRejectsOutOfRangeValues() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OpenBackoff(0.5, Duration.ofMinutes(30), 0.0))
                .withMessage("openBackoff.multiplier must be >= 1, but was 0.5");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OpenBackoff(2.0, Duration.ZERO, 0.0))
                .withMessage("openBackoff.maxOpenTime must be positive, but was PT0S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OpenBackoff(2.0, Duration.ofMinutes(30), 1.0))
                .withMessage("openBackoff.jitter must be in [0, 1), but was 1.0");
    }

    @Test
    void theDefaultsAreTheSeeds() {
        CircuitBreakerConfig defaults = CircuitBreakerConfig.defaults();

        assertThat(defaults.triggers()).containsExactly(
                Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)),
                Trigger.consecutiveErrors(5),
                Trigger.consecutive5xx(3),
                Trigger.consecutive429(2),
                Trigger.tokenOveruse(50_000),
                Trigger.failureRate(Window.ofCalls(20), 10, 0.5));
        assertThat(defaults.resetTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.halfOpenRequests()).isEqualTo(1);
        assertThat(defaults.successesToClose()).isEqualTo(1);
        assertThat(defaults.autoHalfOpen()).isTrue();
        assertThat(defaults.openBackoff()).isEqualTo(OpenBackoff.NONE);
    }

    @Test
    void theFirstNamedTriggerReplacesTheDefaults() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder().trigger(Trigger.consecutiveErrors(3)).build();

        assertThat(config.triggers()).containsExactly(Trigger.consecutiveErrors(3));
    }

    @Test
    void aTriggerOfTheSameKindReplacesTheEarlierOne() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(3))
                .trigger(Trigger.consecutive5xx(2))
                .trigger(Trigger.consecutiveErrors(7))
                .build();

        assertThat(config.triggers()).containsExactly(Trigger.consecutive5xx(2), Trigger.consecutiveErrors(7));
    }

    @Test
    void successesToCloseDefaultsToAllProbes() {
        assertThat(CircuitBreakerConfig.builder().halfOpenRequests(3).build().successesToClose()).isEqualTo(3);
    }

    @Test
    void toBuilderKeepsEverySetting() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(2))
                .resetTimeout(Duration.ofMinutes(10))
                .halfOpenRequests(3)
                .successesToClose(2)
                .autoHalfOpen(false)
                .build();

        assertThat(config.toBuilder().build()).isEqualTo(config);
    }
}
