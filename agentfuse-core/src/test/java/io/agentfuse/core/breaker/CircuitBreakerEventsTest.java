package io.agentfuse.core.breaker;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.Race;
import io.agentfuse.core.RecordingListener;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One event per transition, whatever the number of threads; listeners cannot break calls. */
class CircuitBreakerEventsTest {

    private static final long FAST = Duration.ofMillis(20).toNanos();

    private static final CircuitBreakerListener THROWING = new CircuitBreakerListener() {
        @Override
        public void onStateTransition(StateTransition event) {
            throw new IllegalStateException("listener bug");
        }

        @Override
        public void onCallRejected(CircuitBreaker breaker) {
            throw new IllegalStateException("listener bug");
        }

        @Override
        public void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
            throw new IllegalStateException("listener bug");
        }
    };

    private final ManualClock clock = new ManualClock();
    private final RecordingListener listener = new RecordingListener();
    private final CircuitBreaker breaker = CircuitBreaker.of("tool:db/query", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3))
            .resetTimeout(Duration.ofMinutes(5))
            .build(), clock);

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        }
    }

    @RepeatedTest(20)
    void exactlyOneTransitionWhenSixteenThreadsFailAtOnce() throws Exception {
        breaker.addListener(listener);

        List<String> results = Race.run(16, () -> {
            try {
                return breaker.executeSupplier(() -> {
                    throw new HttpStatusException(500);
                });
            } catch (CircuitOpenException rejected) {
                return "rejected";
            } catch (HttpStatusException failed) {
                return "failed";
            }
        });

        assertThat(listener.transitions()).hasSize(1);
        StateTransition trip = listener.transitions().get(0);
        assertThat(trip.from()).isEqualTo(CircuitState.CLOSED);
        assertThat(trip.to()).isEqualTo(CircuitState.OPEN);
        assertThat(results).filteredOn("failed"::equals).hasSizeGreaterThanOrEqualTo(3);
        assertThat(listener.rejected()).isEqualTo(results.stream().filter("rejected"::equals).count());
    }

    @Test
    void theTripEventCarriesFromToReasonAndCounts() {
        breaker.addListener(listener);
        clock.advance(Duration.ofSeconds(42));

        fail(3);

        assertThat(listener.transitions()).containsExactly(new StateTransition("tool:db/query",
                CircuitState.CLOSED, CircuitState.OPEN, "consecutiveErrors: 3 in a row (threshold 3)",
                Map.of("consecutiveErrors", 3L), ManualClock.DEFAULT_EPOCH_MILLIS + 42_000));
    }

    @Test
    void everyTransitionOfARecoveryIsPublishedInOrder() {
        breaker.addListener(listener);
        fail(3);
        clock.advance(Duration.ofMinutes(5));

        breaker.executeSupplier(() -> "ok");

        assertThat(listener.transitions()).extracting(event -> event.from() + "->" + event.to() + ": " + event.reason())
                .containsExactly(
                        "CLOSED->OPEN: consecutiveErrors: 3 in a row (threshold 3)",
                        "OPEN->HALF_OPEN: resetTimeout elapsed",
                        "HALF_OPEN->CLOSED: half-open probes succeeded");
    }

    @Test
    void everyRejectedCallIsReported() {
        breaker.addListener(listener);
        fail(3);

        breaker.tryAcquirePermission();
        breaker.execute(() -> "called", open -> "rejected");
        assertThatThrownBy(() -> breaker.executeSupplier(() -> "called")).isInstanceOf(CircuitOpenException.class);

        assertThat(listener.rejected()).isEqualTo(3);
    }

    @Test
    void everyRecordedCallIsReportedWithOutcomeAndDuration() {
        breaker.addListener(listener);

        Unstamped.success(breaker, 1_000);
        Unstamped.error(breaker, new HttpStatusException(429), 2_000);
        Unstamped.outcome(breaker, Outcome.CLIENT_ERROR, 3_000);

        assertThat(listener.recorded()).containsExactly(Outcome.SUCCESS, Outcome.RATE_LIMITED, Outcome.CLIENT_ERROR);
        assertThat(listener.durations()).containsExactly(1_000L, 2_000L, 3_000L);
    }

    @Test
    void aThrowingListenerBreaksNeitherCallsNorOtherListeners() {
        breaker.addListener(THROWING);
        breaker.addListener(listener);

        String answer = breaker.executeSupplier(() -> "ok");
        fail(3);
        String whenOpen = breaker.execute(() -> "called", open -> "rejected");

        assertThat(answer).isEqualTo("ok");
        assertThat(whenOpen).isEqualTo("rejected");
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(listener.transitions()).hasSize(1);
        assertThat(listener.rejected()).isEqualTo(1);
        assertThat(listener.recorded()).hasSize(4);
    }

    @Test
    void aRemovedListenerHearsNothingMore() {
        breaker.addListener(listener);
        Unstamped.success(breaker, FAST);

        breaker.removeListener(listener);
        fail(3);
        breaker.tryAcquirePermission();

        assertThat(listener.recorded()).containsExactly(Outcome.SUCCESS);
        assertThat(listener.transitions()).isEmpty();
        assertThat(listener.rejected()).isZero();
    }

    @Test
    void onlyAListenerOfRecordedCallsMakesTheBreakerTimeItsCalls() {
        // Given a breaker whose triggers judge no durations
        CircuitBreaker untimed = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(3)).build(), clock);

        // When a listener of rejections and transitions only is added, calls stay untimed
        untimed.addListener(new io.agentfuse.core.event.RejectionCounter());
        untimed.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(StateTransition event) {
            }
        });
        assertThat(untimed.timesCalls()).isFalse();

        // Then a listener of recorded calls makes them timed, and removing it undoes that
        untimed.addListener(listener);
        assertThat(untimed.timesCalls()).isTrue();
        untimed.executeSupplier(() -> {
            clock.advance(Duration.ofMillis(250));
            return "done";
        });
        assertThat(listener.durations()).containsExactly(Duration.ofMillis(250).toNanos());
        untimed.removeListener(listener);
        assertThat(untimed.timesCalls()).isFalse();
    }
}
