package io.agentfuse.core.breaker;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.timeout.CallTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A half-open probe slower than the slow-call threshold is a failed probe (docs/design.md §2: slower than the threshold = TIMEOUT). */
class SlowProbeTest {

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("model:sonnet", CircuitBreakerConfig.defaults(), clock);
    private final Guard guard = Guard.builder("model:sonnet").circuitBreaker(breaker).manualClock(clock).build();

    private String answerAfter(Duration duration) {
        clock.advance(duration);
        return "answer";
    }

    private void tripWithThreeTimeouts() {
        for (int i = 0; i < 3; i++) {
            catchThrowable(() -> guard.execute(() -> {
                throw new CallTimeoutException(Duration.ofSeconds(60));
            }));
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        clock.advance(Duration.ofMinutes(5));
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aProbeThatAnswersInSixtyOneSecondsReopensTheBreaker() {
        tripWithThreeTimeouts();

        String answer = guard.execute(() -> answerAfter(Duration.ofSeconds(61)));

        assertThat(answer).as("the caller still gets its answer").isEqualTo("answer");
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("slower than");
    }

    @Test
    void aProbeThatAnswersInFiftyNineSecondsClosesTheBreaker() {
        tripWithThreeTimeouts();

        guard.execute(() -> answerAfter(Duration.ofSeconds(59)));

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
}
