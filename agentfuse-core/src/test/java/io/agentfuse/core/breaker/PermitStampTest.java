package io.agentfuse.core.breaker;

import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Every permit is a stamp of the state that granted it; outcomes of earlier states do not count (docs/design.md §3). */
class PermitStampTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();

    private final ManualClock clock = new ManualClock();

    private CircuitBreaker breaker(Trigger trigger) {
        return CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
                .trigger(trigger).resetTimeout(Duration.ofMinutes(5)).probeTimeout(Duration.ofMinutes(2)).build(), clock);
    }

    private static void fail(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, FAST, RetryAfter.NONE);
        }
    }

    @Test
    void aLateAnswerFromClosedDoesNotPassForTheHalfOpenProbe() {
        // Given a slow call admitted while CLOSED, then the breaker trips and half-opens
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(3));
        long slowCall = breaker.acquire();
        fail(breaker, 3);
        clock.advance(Duration.ofMinutes(5));
        long probe = breaker.acquire();
        assertThat(probe).isNotEqualTo(CircuitBreaker.NOT_PERMITTED).isNotEqualTo(slowCall);

        // When the slow call finally answers with a success
        breaker.onOutcome(slowCall, Outcome.SUCCESS, FAST, RetryAfter.NONE);

        // Then it is not taken for the probe: the breaker waits for the probe's own answer
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        breaker.onOutcome(probe, Outcome.SUCCESS, FAST, RetryAfter.NONE);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anExpiredProbesAnswerIsIgnoredAndTheNewProbeDecides() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        fail(breaker, 1);
        clock.advance(Duration.ofMinutes(5));
        long expired = breaker.acquire();
        clock.advance(Duration.ofMinutes(2));
        long fresh = breaker.acquire();
        assertThat(fresh).as("the unanswered probe was written off").isNotEqualTo(CircuitBreaker.NOT_PERMITTED);

        breaker.onOutcome(expired, Outcome.SERVER_ERROR, FAST, RetryAfter.NONE);
        assertThat(breaker.state()).as("a written-off probe's failure does not reopen").isEqualTo(CircuitState.HALF_OPEN);

        breaker.onOutcome(fresh, Outcome.SUCCESS, FAST, RetryAfter.NONE);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aStaleReleaseDoesNotHandOutAnotherProbe() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        long fromClosed = breaker.acquire();
        fail(breaker, 1);
        clock.advance(Duration.ofMinutes(5));
        assertThat(breaker.acquire()).isNotEqualTo(CircuitBreaker.NOT_PERMITTED);

        breaker.release(fromClosed);

        assertThat(breaker.acquire()).as("still one probe only").isEqualTo(CircuitBreaker.NOT_PERMITTED);
    }

    @Test
    void aProviderWhoseStreamsAlwaysBreakAfterFortyChunksTripsConsecutiveErrors() {
        // Given streams that each take a permit, relay 40 chunks, then break
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(5));
        for (int stream = 1; stream <= 5; stream++) {
            long permit = breaker.acquire();
            assertThat(permit).as("stream " + stream + " admitted").isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
            for (int chunk = 0; chunk < 40; chunk++) {
                clock.advanceMillis(50); // chunks flow; nothing is recorded until the stream ends
            }
            // When each records its final outcome against the permit it started with
            breaker.onResult(permit, AttemptResult.failure(Outcome.CONNECTION_ERROR, null, 2_000_000_000L, RetryAfter.NONE));
        }

        // Then the fifth broken stream opens the breaker
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("consecutiveErrors");
    }

    @Test
    void aStreamStartedBeforeATripThatBreaksAfterItDoesNotCountAgainstTheProbe() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        long stream = breaker.acquire();
        fail(breaker, 1);
        clock.advance(Duration.ofMinutes(5));
        long probe = breaker.acquire();

        breaker.onOutcome(stream, Outcome.CONNECTION_ERROR, FAST, RetryAfter.NONE);

        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        breaker.onOutcome(probe, Outcome.SUCCESS, FAST, RetryAfter.NONE);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aLateRetryAfterStillExtendsTheOpenTime() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        long late = breaker.acquire();
        fail(breaker, 1);

        breaker.onOutcome(late, Outcome.RATE_LIMITED, FAST, Duration.ofMinutes(10).toNanos());

        assertThat(breaker.rejection().retryAfter()).hasValue(Duration.ofMinutes(10));
    }
}
