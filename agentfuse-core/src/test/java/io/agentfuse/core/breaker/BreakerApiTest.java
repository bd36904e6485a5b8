package io.agentfuse.core.breaker;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RecordingListener;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.Trigger.Window;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The breaker as a new user reads it from outside: typed results, true state, counts, quiet operators. */
class BreakerApiTest {

    private final ManualClock clock = new ManualClock();
    private final RecordingListener listener = new RecordingListener();

    private CircuitBreaker breaker(Trigger trigger) {
        CircuitBreaker breaker = CircuitBreaker.of("tool:search/web", CircuitBreakerConfig.builder()
                .trigger(trigger).resetTimeout(Duration.ofMinutes(5)).build(), clock);
        breaker.addListener(listener);
        return breaker;
    }

    @Test
    void tryExecuteTypesTheAnswerAndTheRejectionWithoutACast() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));

        CallResult<String> answered = breaker.tryExecute(() -> "page");
        breaker.forceOpen("maintenance");
        CallResult<String> rejected = breaker.tryExecute(() -> "never called");

        assertThat(answered.orElse(Rejection::message)).isEqualTo("page");
        assertThat(rejected.isRejected()).isTrue();
        assertThat(rejected.orElse(Rejection::error)).isEqualTo("CIRCUIT_OPEN");
    }

    @Test
    void repeatingAnOperatorActionPublishesNoSecondEvent() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));

        breaker.forceOpen("maintenance");
        breaker.forceOpen("maintenance again");
        breaker.disable("off");
        breaker.disable("off again");
        breaker.reset();
        breaker.reset();

        assertThat(listener.transitions()).extracting(t -> t.from() + "->" + t.to())
                .containsExactly("CLOSED->FORCED_OPEN", "FORCED_OPEN->DISABLED", "DISABLED->CLOSED");
    }

    @Test
    void aDisabledBreakerRecordsNothing() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        breaker.disable("load test");

        long permit = breaker.acquire();
        breaker.onOutcome(permit, Outcome.SERVER_ERROR, 1_000L, RetryAfter.NONE);
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 1_000L);

        assertThat(listener.recorded()).isEmpty();
        assertThat(breaker.state()).isEqualTo(CircuitState.DISABLED);
    }

    @Test
    void theCountsThatTrippedTheBreakerStayVisibleWhileItIsOpen() {
        CircuitBreaker breaker = breaker(Trigger.failureRate(Window.ofCalls(20), 10, 0.5));
        for (int i = 0; i < 10; i++) {
            breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, 1_000L, RetryAfter.NONE);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);

        CircuitBreakerSnapshot snapshot = breaker.snapshot();

        assertThat(snapshot.counts()).isNotEmpty().containsValue(10L);
    }

    @Test
    void rejectionsAreCountedWithoutAListener() {
        CircuitBreaker breaker = CircuitBreaker.of("tool:search/web", CircuitBreakerConfig.defaults(), clock);
        breaker.forceOpen("maintenance");

        breaker.tryAcquirePermission();
        breaker.acquire();
        breaker.tryExecute(() -> "never");

        assertThat(breaker.rejectedCalls()).isEqualTo(3);
        assertThat(breaker.snapshot().rejectedCalls()).isEqualTo(3);
    }

    @Test
    void anOpenBreakerWhoseTimeHasPassedReportsHalfOpenAndNoOpenUntilWhenRead() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));
        breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, 1_000L, RetryAfter.NONE);
        assertThat(breaker.snapshot().openUntil()).isNotNull();

        clock.advance(Duration.ofMinutes(5));

        assertThat(breaker.snapshot().state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.snapshot().openUntil()).isNull();
    }

    @Test
    void theTokenLimitIsDecidedOnceOnTheConfig() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
                .triggers(java.util.List.of(Trigger.tokenOveruse(50_000), Trigger.tokenOveruse(8_000))).build();

        assertThat(config.tokenLimit()).isEqualTo(8_000);
        assertThat(CircuitBreakerConfig.defaults().tokenLimit()).isEqualTo(50_000);
        assertThat(CircuitBreakerConfig.builder().trigger(Trigger.consecutiveErrors(1)).build().tokenLimit())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aGuardRefusesAClockThatIsNotItsBreakers() {
        CircuitBreaker breaker = breaker(Trigger.consecutiveErrors(1));

        assertThatThrownBy(() -> Guard.builder("g").circuitBreaker(breaker).manualClock(new ManualClock()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clock must be the breaker's clock");
        assertThat(Guard.builder("g").circuitBreaker(breaker).build()).isNotNull();
    }
}
