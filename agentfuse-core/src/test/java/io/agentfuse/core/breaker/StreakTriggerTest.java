package io.agentfuse.core.breaker;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The "in a row" triggers: each opens exactly at its threshold, never one call earlier. */
class StreakTriggerTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();
    private static final long SIXTY_ONE_SECONDS = Duration.ofSeconds(61).toNanos();

    private final ManualClock clock = new ManualClock();

    private CircuitBreaker breakerWith(Trigger... triggers) {
        CircuitBreakerConfig.Builder config = CircuitBreakerConfig.builder();
        for (Trigger trigger : triggers) {
            config.trigger(trigger);
        }
        return CircuitBreaker.of("tool:db/query", config.build(), clock);
    }

    private static void record(CircuitBreaker breaker, Outcome outcome, int times) {
        for (int i = 0; i < times; i++) {
            Unstamped.outcome(breaker, outcome, FAST);
        }
    }

    @Test
    void opensAfterThreeConsecutiveTimeouts() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)));

        record(breaker, Outcome.TIMEOUT, 2);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.TIMEOUT, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void opensAfterThreeSuccessesSlowerThanTheThreshold() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)));

        Unstamped.success(breaker, SIXTY_ONE_SECONDS);
        Unstamped.success(breaker, SIXTY_ONE_SECONDS);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        Unstamped.success(breaker, SIXTY_ONE_SECONDS);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).startsWith("consecutiveTimeouts:");
    }

    @Test
    void aCallExactlyAsSlowAsTheThresholdIsNotSlow() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)));

        for (int i = 0; i < 10; i++) {
            Unstamped.success(breaker, Duration.ofSeconds(60).toNanos());
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void measuresTheDurationOfGuardedCallsOnItsClock() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveTimeouts(3, Duration.ofSeconds(60)));

        for (int i = 0; i < 3; i++) {
            String answer = breaker.executeSupplier(() -> {
                clock.advance(Duration.ofSeconds(61));
                return "late but fine";
            });
            assertThat(answer).isEqualTo("late but fine");
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void opensAfterFiveConsecutiveErrorsOfAnyKind() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveErrors(5));

        Unstamped.outcome(breaker, Outcome.TIMEOUT, FAST);
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        Unstamped.outcome(breaker, Outcome.CONNECTION_ERROR, FAST);
        Unstamped.outcome(breaker, Outcome.ERROR, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        Unstamped.outcome(breaker, Outcome.RATE_LIMITED, FAST);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @ParameterizedTest(name = "threshold {0}")
    @ValueSource(ints = {1, 2, 3, 7})
    void consecutiveErrorsOpenAtTheirThreshold(int threshold) {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveErrors(threshold));

        record(breaker, Outcome.ERROR, threshold - 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.ERROR, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void opensAfterThreeConsecutive5xx() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutive5xx(3));

        record(breaker, Outcome.SERVER_ERROR, 2);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.SERVER_ERROR, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void anotherKindOfFailureBreaksA5xxStreak() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutive5xx(3));

        record(breaker, Outcome.SERVER_ERROR, 2);
        record(breaker, Outcome.TIMEOUT, 1);
        record(breaker, Outcome.SERVER_ERROR, 2);

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void opensAfterTwo429InARowMixingRateLimitedAndOverloaded() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutive429(2));

        record(breaker, Outcome.RATE_LIMITED, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.OVERLOADED, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("consecutive429: 2 in a row (threshold 2)");
    }

    @Test
    void opensAfterOneCallOverTheTokenLimit() {
        CircuitBreaker breaker = breakerWith(Trigger.tokenOveruse(50_000));

        Unstamped.success(breaker, FAST, 50_001);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("tokenOveruse: 1 in a row (threshold 1)");
    }

    @Test
    void callsAtExactlyTheTokenLimitDoNotOpen() {
        CircuitBreaker breaker = breakerWith(Trigger.tokenOveruse(50_000));

        for (int i = 0; i < 100; i++) {
            Unstamped.success(breaker, FAST, 50_000);
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aSuccessResetsTheStreak() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveErrors(3));

        record(breaker, Outcome.SERVER_ERROR, 2);
        Unstamped.success(breaker, FAST);
        record(breaker, Outcome.SERVER_ERROR, 2);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.SERVER_ERROR, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aClientErrorNeitherCountsNorResetsTheStreak() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveErrors(3));

        record(breaker, Outcome.SERVER_ERROR, 2);
        record(breaker, Outcome.CLIENT_ERROR, 5);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.SERVER_ERROR, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void a404FromTheToolIsTheCallersFaultAndDoesNotCount() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveErrors(3));

        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> breaker.executeSupplier(() -> {
                throw new HttpStatusException(404);
            })).isInstanceOf(HttpStatusException.class);
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anMcpErrorResultCountsAsAServerError() {
        OutcomeClassifier mcp = OutcomeClassifier.builder()
                .resultRule(result -> result instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get("isError")),
                        Outcome.SERVER_ERROR)
                .build();
        CircuitBreaker breaker = CircuitBreaker.of("tool:db/query", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(3)).classifier(mcp).build(), clock);

        for (int i = 0; i < 3; i++) {
            breaker.executeSupplier(() -> Map.of("isError", true, "content", "database unavailable"));
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void theReasonNamesTheTriggerThatFiredWithItsCount() {
        CircuitBreaker breaker = breakerWith(Trigger.consecutiveErrors(5), Trigger.consecutive5xx(3));

        record(breaker, Outcome.SERVER_ERROR, 3);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).isEqualTo("consecutive5xx: 3 in a row (threshold 3)");
    }

    @Test
    void theDefaultTriggersFollowTheSeed() {
        CircuitBreaker breaker = CircuitBreaker.of("model:claude-sonnet-4", CircuitBreakerConfig.defaults(), clock);

        record(breaker, Outcome.RATE_LIMITED, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        record(breaker, Outcome.RATE_LIMITED, 1);
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).startsWith("consecutive429:");
    }
}
