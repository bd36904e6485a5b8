package io.agentfuse.core.scenario;

import io.agentfuse.core.Guard;
import io.agentfuse.core.HeldPermit;
import io.agentfuse.core.LongCall;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
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

    /** A stream that has sent its first event; it reports its end through the permit it holds. */
    private final class Stream implements LongCall {
        private final HeldPermit permit = new HeldPermit(guard);

        @Override
        public HeldPermit heldPermit() {
            return permit;
        }

        void breakOff() {
            for (int chunk = 0; chunk < 40; chunk++) {
                clock.advanceMillis(20);
            }
            permit.failed(Outcome.CONNECTION_ERROR);
        }

        void finish() {
            permit.finished(1_000);
        }
    }

    @Test
    void fiveStreamsThatEachBreakAfterFortyChunksOpenTheBreaker() {
        for (int i = 0; i < 5; i++) {
            Stream stream = guard.execute(Stream::new);
            assertThat(breaker.state()).as("nothing recorded at the first event").isEqualTo(CircuitState.CLOSED);
            stream.breakOff();
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aHalfOpenProbeThatIsAStreamIsJudgedWhenItEnds() {
        for (int i = 0; i < 5; i++) {
            guard.execute(Stream::new).breakOff();
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
            ((Stream) guard.execute((Supplier<Object>) Stream::new)).finish();
        }
        for (int i = 0; i < 5; i++) {
            guard.execute(text);
            ((Stream) guard.execute((Supplier<Object>) Stream::new)).breakOff();
        }
        assertThat(breaker.state()).as("plain answers in between reset the streak").isEqualTo(CircuitState.CLOSED);

        guard.execute(number);
        for (int i = 0; i < 5; i++) {
            ((Stream) guard.execute((Supplier<Object>) Stream::new)).breakOff();
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }
}
