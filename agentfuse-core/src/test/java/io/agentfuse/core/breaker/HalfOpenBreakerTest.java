package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.Race;
import io.agentfuse.core.RecordingListener;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** HALF_OPEN: a fixed number of probes, closing on success, reopening (with backoff) on failure. */
class HalfOpenBreakerTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();
    private static final Duration RESET = Duration.ofMinutes(5);

    private final ManualClock clock = new ManualClock();

    private CircuitBreaker breaker(CircuitBreakerConfig.Builder config) {
        return CircuitBreaker.of("tool:browser/open", config
                .trigger(Trigger.consecutiveErrors(1))
                .resetTimeout(RESET)
                .build(), clock);
    }

    private CircuitBreaker halfOpen(CircuitBreakerConfig.Builder config) {
        CircuitBreaker breaker = breaker(config);
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        clock.advance(RESET);
        return breaker;
    }

    /** Fails a probe and returns to the caller with the breaker OPEN again. */
    private static void failProbe(CircuitBreaker breaker) {
        assertThat(breaker.tryAcquirePermission()).as("probe admitted").isTrue();
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    /** Asserts that the breaker rejects until just before {@code open} has passed and probes at it. */
    private void assertOpenFor(CircuitBreaker breaker, Duration open) {
        clock.advance(open.minusMillis(1));
        assertThat(breaker.tryAcquirePermission()).as("rejected 1 ms before " + open).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquirePermission()).as("probe admitted at " + open).isTrue();
    }

    @RepeatedTest(20)
    void admitsExactlyThreeProbesWhileSixteenThreadsRace() throws Exception {
        RecordingListener listener = new RecordingListener();
        CircuitBreaker breaker = breaker(CircuitBreakerConfig.builder().halfOpenRequests(3));
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        breaker.addListener(listener);
        clock.advance(RESET);

        List<Boolean> granted = Race.run(16, breaker::tryAcquirePermission);

        assertThat(granted).filteredOn(Boolean::booleanValue).hasSize(3);
        assertThat(listener.rejected()).isEqualTo(13);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(listener.transitionsTo(CircuitState.HALF_OPEN)).hasSize(1);
    }

    @Test
    void closesOnceSuccessesToCloseProbesSucceeded() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder().halfOpenRequests(3).successesToClose(2));
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.tryAcquirePermission()).isTrue();
        }

        Unstamped.success(breaker, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);

        Unstamped.success(breaker, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void byDefaultEveryProbeMustSucceed() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder().halfOpenRequests(3));
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.tryAcquirePermission()).isTrue();
        }

        Unstamped.success(breaker, FAST);
        Unstamped.success(breaker, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);

        Unstamped.outcome(breaker, Outcome.TIMEOUT, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aFailedProbeReopensForTheResetTimeout() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder());

        failProbe(breaker);

        assertThat(breaker.snapshot().reason()).isEqualTo("half-open probe failed: SERVER_ERROR");
        assertOpenFor(breaker, RESET);
    }

    @Test
    void aSecondTripInARowStaysOpenTwiceAsLong() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder()
                .openBackoff(new OpenBackoff(2.0, Duration.ofHours(1), 0.0)));

        failProbe(breaker);

        assertOpenFor(breaker, RESET.multipliedBy(2));
    }

    @Test
    void theOpenTimeNeverExceedsTheBackoffCap() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder()
                .openBackoff(new OpenBackoff(2.0, Duration.ofMinutes(12), 0.0)));
        failProbe(breaker);
        assertOpenFor(breaker, Duration.ofMinutes(10));
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);

        assertOpenFor(breaker, Duration.ofMinutes(12));
    }

    @Test
    void jitterKeepsTheOpenTimeWithinItsSpread() {
        CircuitBreaker breaker = breaker(CircuitBreakerConfig.builder()
                .openBackoff(new OpenBackoff(1.0, Duration.ofHours(1), 0.1)));
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);

        clock.advance(Duration.ofSeconds(270).minusMillis(1));
        assertThat(breaker.tryAcquirePermission()).as("before 90 % of 5 min").isFalse();
        clock.advance(Duration.ofSeconds(60).plusMillis(1));
        assertThat(breaker.tryAcquirePermission()).as("at 110 % of 5 min").isTrue();
    }

    @Test
    void closingResetsTheBackoff() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder()
                .openBackoff(new OpenBackoff(2.0, Duration.ofHours(1), 0.0)));
        failProbe(breaker);
        clock.advance(RESET.multipliedBy(2));
        assertThat(breaker.tryAcquirePermission()).isTrue();
        Unstamped.success(breaker, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);

        assertOpenFor(breaker, RESET);
    }

    @Test
    void anExpiredProbeFreesTheBreakerForANewOne() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder().probeTimeout(Duration.ofMinutes(2)));
        assertThat(breaker.tryAcquirePermission()).as("the probe that never reports").isTrue();

        clock.advance(Duration.ofMinutes(2).minusMillis(1));
        assertThat(breaker.tryAcquirePermission()).isFalse();

        clock.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @RepeatedTest(10)
    void afterExpiredProbesSixteenRacingThreadsGetExactlyThreeNewOnes() throws Exception {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder()
                .halfOpenRequests(3).probeTimeout(Duration.ofMinutes(2)));
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.tryAcquirePermission()).as("probes that never report").isTrue();
        }
        clock.advance(Duration.ofMinutes(2));

        List<Boolean> granted = Race.run(16, breaker::tryAcquirePermission);

        assertThat(granted).filteredOn(Boolean::booleanValue).hasSize(3);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void releasingAPermissionReturnsTheProbe() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder());
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isFalse();

        Unstamped.release(breaker);

        assertThat(breaker.tryAcquirePermission()).isTrue();
    }

    @Test
    void aProbeThatEndsInAClientErrorReturnsItsPermit() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder());
        assertThat(breaker.tryAcquirePermission()).isTrue();

        Unstamped.outcome(breaker, Outcome.CLIENT_ERROR, FAST);

        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.tryAcquirePermission()).isTrue();
    }

    @Test
    void callsBeyondTheProbesAreRejectedWithoutBeingMade() {
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder());
        assertThat(breaker.tryAcquirePermission()).isTrue();

        String answer = breaker.execute(() -> "called", open -> "rejected in " + open.state());

        assertThat(answer).isEqualTo("rejected in HALF_OPEN");
    }

    @Test
    void aLateAnswerOfACallAdmittedBeforeTheTripDoesNotCloseTheBreakerWithoutAProbe() {
        // Given a call admitted while CLOSED, still running when the breaker trips and half-opens
        CircuitBreaker breaker = breaker(CircuitBreakerConfig.builder());
        assertThat(breaker.tryAcquirePermission()).isTrue();
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        breaker.transitionToHalfOpen();

        // When that slow call finally succeeds, before any probe was let through
        Unstamped.outcome(breaker, Outcome.SUCCESS, FAST);

        // Then it proves nothing about the recovery: the breaker still waits for its probe
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.tryAcquirePermission()).as("the probe is still available").isTrue();
    }

    @Test
    void releasesFromAnExpiredProbeNeverRaiseTheProbesAboveHalfOpenRequests() {
        // Given a probe that went unanswered past probeTimeout, and a new probe taking its place
        CircuitBreaker breaker = halfOpen(CircuitBreakerConfig.builder().probeTimeout(Duration.ofMinutes(1)));
        assertThat(breaker.tryAcquirePermission()).as("the first probe").isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(breaker.tryAcquirePermission()).as("a fresh probe after expiry").isTrue();

        // When both the old probe and the new one give their permits back
        Unstamped.release(breaker);
        Unstamped.release(breaker);

        // Then only the one permit outstanding comes back: still one probe at a time
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).as("still one probe at a time").isFalse();
    }
}
