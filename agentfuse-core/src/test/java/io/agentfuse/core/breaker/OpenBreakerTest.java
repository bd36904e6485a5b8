package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import io.agentfuse.core.event.RejectionCounter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.entry;

/** OPEN: fast failure without calling, a retry time that counts down, then HALF_OPEN. */
class OpenBreakerTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();

    private final ManualClock clock = new ManualClock();
    private final AtomicInteger invocations = new AtomicInteger();
    private CircuitBreaker breaker;

    @BeforeEach
    void tripTheBreaker() {
        breaker = CircuitBreaker.of("tool:search/web_search", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(3))
                .resetTimeout(Duration.ofMinutes(5))
                .build(), clock);
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    private String search() {
        invocations.incrementAndGet();
        return "results";
    }

    @Test
    void rejectsWithoutCallingTheFunction() {
        CircuitOpenException rejected = catchThrowableOfType(CircuitOpenException.class,
                () -> breaker.executeSupplier(this::search));

        assertThat(rejected).isNotNull();
        assertThat(invocations).hasValue(0);
        assertThat(rejected.rejection().state()).isEqualTo(CircuitState.OPEN);
        assertThat(rejected.rejection().breakerName()).isEqualTo("tool:search/web_search");
    }

    @Test
    void rejectsCallablesWithoutCallingThem() {
        CircuitOpenException rejected = catchThrowableOfType(CircuitOpenException.class,
                () -> breaker.executeCallable(this::search));

        assertThat(rejected).isNotNull();
        assertThat(invocations).hasValue(0);
    }

    @Test
    void theRetryTimeOfTheRejectionCountsDown() {
        CircuitOpenException atTrip = catchThrowableOfType(CircuitOpenException.class,
                () -> breaker.executeSupplier(this::search));
        assertThat(atTrip.rejection().retryAfter()).contains(Duration.ofMinutes(5));

        clock.advance(Duration.ofMinutes(2));
        CircuitOpenException later = catchThrowableOfType(CircuitOpenException.class,
                () -> breaker.executeSupplier(this::search));

        assertThat(later.rejection().retryAfter()).contains(Duration.ofMinutes(3));
        assertThat(atTrip.rejection().retryAfter()).contains(Duration.ofMinutes(3));
    }

    @Test
    void executeHandsTheRejectionToWhenOpenAndNeverCalls() {
        String answer = breaker.execute(this::search, open -> "unavailable: " + open.error());

        assertThat(answer).isEqualTo("unavailable: CIRCUIT_OPEN");
        assertThat(invocations).hasValue(0);
    }

    @Test
    void theRejectionHasTheSeedsShape() {
        Map<String, Object> atTrip = breaker.execute(() -> Map.of(), Rejection::toMap);

        assertThat(atTrip).containsOnlyKeys("error", "message", "retryAfter");
        assertThat(atTrip).contains(entry("error", "CIRCUIT_OPEN"), entry("retryAfter", 300L));
        assertThat((String) atTrip.get("message"))
                .contains("tool:search/web_search")
                .contains("consecutiveErrors: 3 in a row (threshold 3)");
    }

    @Test
    void retryAfterSecondsRoundUp() {
        clock.advance(Duration.ofMillis(90_500));

        Map<String, Object> rejection = breaker.execute(() -> Map.of(), Rejection::toMap);

        assertThat(rejection).contains(entry("retryAfter", 210L));
        assertThat(breaker.rejection().retryAfterSeconds()).isEqualTo(210L);
        assertThat(breaker.rejection().unavailable("web_search"))
                .isEqualTo("CIRCUIT_OPEN: web_search is unavailable, retry after 210 s");
    }

    @Test
    void theRejectionNamesWhenCallsPassAgain() {
        Instant fiveMinutesLater = Instant.ofEpochMilli(ManualClock.DEFAULT_EPOCH_MILLIS).plus(Duration.ofMinutes(5));

        assertThat(breaker.rejection().openUntil()).contains(fiveMinutesLater);
        assertThat(breaker.snapshot().openUntil()).isEqualTo(fiveMinutesLater);
    }

    @Test
    void readsAsHalfOpenOnceTheResetTimeoutHasPassedWithoutACall() {
        clock.advance(Duration.ofMinutes(5));

        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.snapshot().state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.snapshot().openUntil()).as("no open time in the past").isNull();
        assertThat(invocations).hasValue(0);
    }

    @Test
    void staysOpenUntilTheResetTimeoutHasPassed() {
        clock.advance(Duration.ofMinutes(5).minusMillis(1));

        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void halfOpensOnTheFirstCallAfterTheResetTimeout() {
        clock.advance(Duration.ofMinutes(5));

        String answer = breaker.executeSupplier(this::search);

        assertThat(answer).isEqualTo("results");
        assertThat(invocations).hasValue(1);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void thePermittedCallAfterTheResetTimeoutIsAProbe() {
        clock.advance(Duration.ofMinutes(5));

        assertThat(breaker.tryAcquirePermission()).isTrue();

        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aRejectionCounterCountsEveryRejectedCall() {
        RejectionCounter rejections = new RejectionCounter();
        breaker.addListener(rejections);

        for (int i = 0; i < 4; i++) {
            breaker.execute(this::search, open -> "unavailable");
        }

        assertThat(rejections.rejected(breaker.name())).isEqualTo(4);
        assertThat(rejections.rejected("some other breaker")).isZero();
    }

    @Test
    void lateOutcomesOfCallsMadeBeforeTheTripDoNotCloseIt() {
        for (int i = 0; i < 10; i++) {
            Unstamped.success(breaker, FAST);
        }

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.rejection().retryAfter()).contains(Duration.ofMinutes(5));
    }
}
