package io.agentfuse.core.breaker;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RecordingListener;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** FORCED_OPEN, DISABLED, close and reset: states that only an operator enters and leaves. */
class OperatorControlTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker breaker = CircuitBreaker.of("tool:db/query", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3))
            .build(), clock);

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        }
    }

    @Test
    void forceOpenRejectsWithoutAReopeningTime() {
        breaker.forceOpen("database migration");

        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(breaker.state()).isEqualTo(CircuitState.FORCED_OPEN);
        assertThat(breaker.snapshot().openUntil()).isNull();
        assertThat(breaker.snapshot().reason()).isEqualTo("database migration");
        assertThat(breaker.rejection().retryAfter()).isEmpty();
        assertThat(breaker.rejection().toMap()).containsEntry("retryAfter", null);
    }

    @Test
    void aCallerRefusedByAForcedOpenBreakerIsToldToStayAwayForItsResetTimeout() {
        breaker.forceOpen("database migration");

        assertThat(breaker.rejection().suggestedWaitNanos()).isEqualTo(Duration.ofMinutes(5).toNanos());
        assertThat(breaker.rejection().unavailable("query")).isEqualTo("CIRCUIT_OPEN: query is unavailable, retry after 300 s");
    }

    @Test
    void aTrippedBreakerSuggestsTheWaitUntilItHalfOpens() {
        fail(3);
        clock.advance(Duration.ofMinutes(2));

        assertThat(breaker.rejection().suggestedWaitSeconds()).isEqualTo(180);
        assertThat(breaker.rejection().unavailable("query")).endsWith("retry after 180 s");
    }

    @Test
    void forcedOpenIsNotChangedByOutcomesOrTime() {
        breaker.forceOpen("database migration");

        for (int i = 0; i < 10; i++) {
            Unstamped.success(breaker, FAST);
        }
        clock.advance(Duration.ofDays(1));

        assertThat(breaker.state()).isEqualTo(CircuitState.FORCED_OPEN);
        assertThat(breaker.tryAcquirePermission()).isFalse();
    }

    @Test
    void forcedOpenThrowsCircuitOpenWithoutCalling() {
        AtomicInteger invocations = new AtomicInteger();
        breaker.forceOpen("database migration");

        assertThatThrownBy(() -> breaker.executeSupplier(invocations::incrementAndGet))
                .isInstanceOf(CircuitOpenException.class)
                .hasMessageContaining("FORCED_OPEN");
        assertThat(invocations).hasValue(0);
    }

    @Test
    void disableLetsEveryCallPassAndRecordsNothing() {
        AtomicInteger invocations = new AtomicInteger();
        breaker.disable("breaker misbehaves");

        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(() -> breaker.executeSupplier(() -> {
                invocations.incrementAndGet();
                throw new HttpStatusException(500);
            })).isInstanceOf(HttpStatusException.class);
        }

        assertThat(invocations).hasValue(10);
        assertThat(breaker.state()).isEqualTo(CircuitState.DISABLED);
    }

    @Test
    void closeEndsAnOpenPeriodWithFreshCounters() {
        fail(3);

        breaker.close("fixed by hand");
        fail(2);

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.tryAcquirePermission()).isTrue();
    }

    @Test
    void closeEndsForcedOpenAndDisabled() {
        breaker.forceOpen("maintenance");
        breaker.close("maintenance over");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);

        breaker.disable("noisy");
        breaker.close("quiet again");
        fail(3);
        assertThat(breaker.state()).as("triggers watch again").isEqualTo(CircuitState.OPEN);
    }

    @Test
    void resetClosesTheBreakerWithFreshCounters() {
        fail(3);
        breaker.tryAcquirePermission();

        breaker.reset();

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }

    @Test
    void operatorActionsPublishTransitionsNamingTheOperator() {
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);

        breaker.forceOpen("maintenance");
        breaker.close("done");

        assertThat(listener.transitions()).extracting(event -> event.from() + "->" + event.to() + ": " + event.reason())
                .containsExactly("CLOSED->FORCED_OPEN: operator: maintenance", "FORCED_OPEN->CLOSED: operator: done");
    }
}
