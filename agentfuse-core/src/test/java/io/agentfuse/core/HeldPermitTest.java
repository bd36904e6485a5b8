package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one stream accounting: a result that holds its permit reports its end once, with the whole
 * duration from the start of its attempt and the tokens it used, so that every trigger sees a
 * stream as it sees a complete call.
 */
class HeldPermitTest {

    private final ManualClock clock = new ManualClock();

    private CircuitBreaker breaker(Trigger trigger) {
        return CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder().trigger(trigger)
                .resetTimeout(Duration.ofMinutes(5)).build(), clock);
    }

    private Guard guard(CircuitBreaker breaker) {
        return Guard.builder("model:sonnet").circuitBreaker(breaker).manualClock(clock).build();
    }

    /** A stream whose first event came after {@code firstEvent}; it reports its end through the permit it holds. */
    private static final class Stream implements LongCall {
        private final HeldPermit permit;

        Stream(Guard guard) {
            this.permit = new HeldPermit(guard);
        }

        @Override
        public HeldPermit heldPermit() {
            return permit;
        }
    }

    private Stream open(Guard guard, Duration firstEvent) {
        return guard.execute(() -> {
            clock.advance(firstEvent);
            return new Stream(guard);
        });
    }

    @Test
    void aStreamSlowerThanTheThresholdIsASlowCallWhenItEndsNotAtItsFirstEvent() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveTimeouts(1, Duration.ofSeconds(10)));
        Stream stream = open(guard(breaker), Duration.ofSeconds(1));
        assertThat(breaker.state()).as("nothing recorded at the first event").isEqualTo(CircuitState.CLOSED);

        clock.advance(Duration.ofSeconds(20));
        stream.permit.finished(10);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("consecutiveTimeouts");
    }

    @Test
    void aStreamWithinTheThresholdIsASuccess() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveTimeouts(1, Duration.ofSeconds(10)));
        Stream stream = open(guard(breaker), Duration.ofSeconds(1));

        clock.advance(Duration.ofSeconds(8));
        stream.permit.finished(10);

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void slowStreamsCountForTheSlowCallRate() {
        CircuitBreaker breaker = breaker(Trigger.slowCallRate(Trigger.Window.ofCalls(2), 2, 0.5, Duration.ofSeconds(10)));
        Guard guard = guard(breaker);

        for (int i = 0; i < 2; i++) {
            Stream stream = open(guard, Duration.ofMillis(100));
            clock.advance(Duration.ofSeconds(30));
            stream.permit.finished(0);
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("slowCallRate");
    }

    @Test
    void aStreamOverTheTokenLimitIsTokenOveruse() {
        CircuitBreaker breaker = breaker(Trigger.tokenOveruse(1_000));
        Stream stream = open(guard(breaker), Duration.ZERO);

        stream.permit.finished(5_000);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("tokenOveruse");
    }

    @Test
    void anEndBeforeTheHandOverIsRecordedAtTheHandOverWithTheDurationUpToThen() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveTimeouts(1, Duration.ofSeconds(10)));
        Guard guard = guard(breaker);

        guard.execute(() -> {
            Stream stream = new Stream(guard);
            clock.advance(Duration.ofSeconds(15));
            stream.permit.finished(10); // a short stream ended on its own thread before the guard returned it
            return stream;
        });

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aBrokenStreamIsClassifiedByTheGuardAndKeepsTheServersWait() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        Stream stream = open(guard(breaker), Duration.ZERO);

        Outcome outcome = stream.permit.broke(HttpStatusException.builder(503).retryAfter("600").build());

        assertThat(outcome).isEqualTo(Outcome.SERVER_ERROR);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().openUntil())
                .as("open for the server's 10 minutes, not the 5 of resetTimeout")
                .isEqualTo(Instant.ofEpochMilli(clock.epochMillis()).plus(Duration.ofMinutes(10)));
    }

    @Test
    void onlyTheFirstEndCounts() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        Stream stream = open(guard(breaker), Duration.ZERO);

        stream.permit.finished(10);
        stream.permit.failed(Outcome.CONNECTION_ERROR);
        stream.permit.broke(new ConnectException("refused"));

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aReleasedStreamCountsForNothingAndGivesAProbeBack() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        Guard guard = guard(breaker);
        open(guard, Duration.ZERO).permit.failed(Outcome.SERVER_ERROR);
        clock.advance(Duration.ofMinutes(5));

        open(guard, Duration.ZERO).permit.released(); // the caller left during the half-open probe
        Stream probe = open(guard, Duration.ZERO);
        probe.permit.finished(10);

        assertThat(breaker.state()).as("the released probe's place went to the next call").isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void theAsynchronousPathHandsThePermitOverToo() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        Guard guard = guard(breaker);

        Stream stream = guard.executeAsync(() -> CompletableFuture.completedFuture(new Stream(guard))).join();
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        stream.permit.failed(Outcome.CONNECTION_ERROR);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }
}
