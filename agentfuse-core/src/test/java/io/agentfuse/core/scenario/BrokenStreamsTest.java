package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.LongCall;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** A stream returned by a guard holds its permit until it ends, so streams that always break trip the breaker. */
class BrokenStreamsTest {

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(5)).resetTimeout(Duration.ofMinutes(5)).build(), clock);
    private final Guard guard = Guard.builder("model:sonnet").circuitBreaker(breaker).manualClock(clock).build();

    /** A stream that has sent its first event; it records its end against the permit it holds. */
    private static final class Stream implements LongCall {
        private CircuitBreaker breaker;
        private long permit;

        @Override
        public boolean holdPermit(CircuitBreaker breaker, long permit) {
            this.breaker = breaker;
            this.permit = permit;
            return true;
        }

        void breakOff(ManualClock clock) {
            for (int chunk = 0; chunk < 40; chunk++) {
                clock.advanceMillis(20);
            }
            breaker.onOutcome(permit, Outcome.CONNECTION_ERROR, Duration.ofMillis(800).toNanos(), RetryAfter.NONE);
        }

        void finish() {
            breaker.onSuccess(permit, Duration.ofMillis(800).toNanos(), 1_000);
        }
    }

    @Test
    void fiveStreamsThatEachBreakAfterFortyChunksOpenTheBreaker() {
        for (int i = 0; i < 5; i++) {
            Stream stream = guard.execute(Stream::new);
            assertThat(breaker.state()).as("nothing recorded at the first event").isEqualTo(CircuitState.CLOSED);
            stream.breakOff(clock);
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aHalfOpenProbeThatIsAStreamIsJudgedWhenItEnds() {
        for (int i = 0; i < 5; i++) {
            guard.execute(Stream::new).breakOff(clock);
        }
        clock.advance(Duration.ofMinutes(5));

        Stream probe = guard.execute(Stream::new);
        assertThat(breaker.state()).as("the probe is still running").isEqualTo(CircuitState.HALF_OPEN);
        probe.finish();

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aStreamAfterPlainAnswersOfOtherTypesStillHoldsItsPermit() {
        // The guard remembers the last plain result type to skip the interface test; a stream must still be seen.
        Supplier<Object> text = () -> "a complete answer";
        Supplier<Object> number = () -> 42;
        for (int i = 0; i < 3; i++) {
            guard.execute(text);
            guard.execute(number);
            Stream stream = (Stream) guard.execute((Supplier<Object>) Stream::new);
            assertThat(stream.breaker).as("the stream was handed the permit").isSameAs(breaker);
            stream.finish();
        }
        for (int i = 0; i < 5; i++) {
            guard.execute(text);
            ((Stream) guard.execute((Supplier<Object>) Stream::new)).breakOff(clock);
        }
        assertThat(breaker.state()).as("plain answers in between reset the streak").isEqualTo(CircuitState.CLOSED);

        guard.execute(number);
        for (int i = 0; i < 5; i++) {
            ((Stream) guard.execute((Supplier<Object>) Stream::new)).breakOff(clock);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }
}
