package io.agentfuse.core.breaker;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A tripped fleet recovers: when the open time ends, exactly one instance probes, starting with the
 * first call that reaches any instance, and its result reaches every instance (issue: a fleet whose
 * probe lease was asked for on a refused call never probed).
 */
class FleetProbeTest {

    private static final String MODEL = "model:probe";
    private static final Duration OPEN = Duration.ofMinutes(5);
    private static final Duration PROBE_TIMEOUT = Duration.ofMinutes(2);
    private static final long FAST = Duration.ofMillis(20).toNanos();

    private final ManualClock clock = new ManualClock();
    private final LoopbackStateStores store = new LoopbackStateStores(clock);

    private CircuitBreaker instance(int halfOpenRequests) {
        return CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(CircuitBreakerConfig.builder()
                        .trigger(Trigger.consecutive5xx(3))
                        .resetTimeout(OPEN)
                        .probeTimeout(PROBE_TIMEOUT)
                        .halfOpenRequests(halfOpenRequests)
                        .build())
                .stateStore(store.connect())
                .build()
                .breaker(MODEL);
    }

    /** Three instances whose breaker tripped on the first and whose open time has just ended. */
    private List<CircuitBreaker> trippedFleetAfterItsOpenTime(int halfOpenRequests) {
        List<CircuitBreaker> fleet = List.of(instance(halfOpenRequests), instance(halfOpenRequests), instance(halfOpenRequests));
        store.deliver();
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(fleet.get(0), Outcome.SERVER_ERROR, FAST);
        }
        store.deliver();
        assertThat(fleet).allSatisfy(breaker -> assertThat(breaker.state()).isEqualTo(CircuitState.OPEN));
        clock.advance(OPEN);
        return fleet;
    }

    @Test
    void whenTheOpenTimeEndsConcurrentCallsOnEveryInstanceMakeExactlyOneProbeTheFirstCall() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);

        Call first = Call.on(fleet.get(1));
        List<Call> others = List.of(Call.on(fleet.get(1)), Call.on(fleet.get(0)), Call.on(fleet.get(0)),
                Call.on(fleet.get(2)), Call.on(fleet.get(2)));
        store.deliver();

        assertThat(first.permitted()).as("the first call of the fleet probes").isTrue();
        assertThat(others).allSatisfy(call -> assertThat(call.refused()).isTrue());
        assertThat(store.leases()).hasSize(1);
    }

    @Test
    void aSuccessfulProbeClosesEveryInstanceAndEndsTheLease() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call probe = Call.on(fleet.get(2));
        Call.on(fleet.get(0));
        store.deliver();

        fleet.get(2).onOutcome(probe.permit, Outcome.SUCCESS, FAST, 0L);
        store.deliver();

        assertThat(fleet).allSatisfy(breaker -> assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED));
        assertThat(store.leases()).isEmpty();
    }

    @Test
    void aFailedProbeOpensEveryInstanceAgain() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call probe = Call.on(fleet.get(0));
        store.deliver();

        fleet.get(0).onOutcome(probe.permit, Outcome.SERVER_ERROR, FAST, 0L);
        store.deliver();

        assertThat(fleet).allSatisfy(breaker -> {
            assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
            assertThat(breaker.snapshot().reason()).contains("half-open probe failed");
        });
        assertThat(store.leases()).isEmpty();
    }

    @Test
    void everyProbeOfHalfOpenRequestsRunsOnTheInstanceThatHoldsTheLease() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(3);

        Call first = Call.on(fleet.get(1));
        Call elsewhere = Call.on(fleet.get(0));
        store.deliver();
        List<Call> next = List.of(Call.on(fleet.get(1)), Call.on(fleet.get(1)), Call.on(fleet.get(1)));

        assertThat(first.permitted()).isTrue();
        assertThat(elsewhere.refused()).isTrue();
        assertThat(next).extracting(Call::permitted).containsExactly(true, true, false);
    }

    @Test
    void singleCallsSpreadOverTheInstancesRecoverOnTheFirstCallAfterTheOpenTime() {
        List<CircuitBreaker> fleet = List.of(instance(1), instance(1), instance(1));
        store.deliver();
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(fleet.get(0), Outcome.SERVER_ERROR, FAST);
        }
        store.deliver();

        int turn = 0;
        Call call;
        do {
            clock.advance(Duration.ofMillis(500));
            call = Call.on(fleet.get(turn++ % 3));
            store.deliver();
        } while (call.refused());

        assertThat(Duration.ofMillis(500L * turn)).as("the first call after the open time").isEqualTo(OPEN);
        assertThat(call.permitted()).isTrue();
        fleet.get((turn - 1) % 3).onOutcome(call.permit, Outcome.SUCCESS, FAST, 0L);
        store.deliver();
        assertThat(fleet).allSatisfy(breaker -> assertThat(Call.on(breaker).permitted()).isTrue());
    }

    @Test
    void aCallOnAnInstanceThatDoesNotProbeIsRefusedForAtMostASecondAndThenItAsksAgain() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call.on(fleet.get(0));
        store.deliver();
        Call refused = Call.on(fleet.get(1));
        store.deliver();
        int asked = store.leaseRequests();

        Rejection rejection = fleet.get(1).currentRejection();
        Call again = Call.on(fleet.get(1));

        assertThat(refused.refused()).isTrue();
        assertThat(rejection.message()).contains("HALF_OPEN").contains("another instance probes");
        assertThat(Duration.ofNanos(rejection.suggestedWaitNanos())).isPositive().isLessThanOrEqualTo(FleetProbe.RECHECK);
        assertThat(again.refused()).as("refused at once, without asking").isTrue();
        assertThat(store.leaseRequests()).isEqualTo(asked);

        clock.advance(FleetProbe.RECHECK);
        Call later = Call.on(fleet.get(1));
        assertThat(later.decided).as("asks the fleet again").isFalse();
        store.deliver();
        assertThat(later.refused()).as("the lease is still the prober's").isTrue();
    }

    @Test
    void aLeaseWhoseProbeWasNotMadeIsGivenBackAndTheNextCallElsewhereProbes() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call notMade = Call.on(fleet.get(0));
        Call.on(fleet.get(1));
        store.deliver();

        fleet.get(0).release(notMade.permit);
        clock.advance(FleetProbe.RECHECK);
        Call next = Call.on(fleet.get(1));
        store.deliver();

        assertThat(next.permitted()).isTrue();
    }

    @Test
    void aProberThatNeverAnswersLosesTheLeaseAfterOneProbeTimeout() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call lost = Call.on(fleet.get(0));
        store.deliver();
        assertThat(lost.permitted()).isTrue();

        clock.advance(PROBE_TIMEOUT.minusSeconds(1));
        Call before = Call.on(fleet.get(2));
        store.deliver();
        clock.advance(Duration.ofSeconds(1));
        Call after = Call.on(fleet.get(2));
        store.deliver();

        assertThat(before.refused()).isTrue();
        assertThat(after.permitted()).as("taken over when the lease expires").isTrue();
    }

    @Test
    void aCallerThatCannotWaitIsRefusedOnceAndTheNextCallOnItsInstanceProbes() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);

        long refused = fleet.get(0).acquire();
        store.deliver();
        long next = fleet.get(0).acquire();
        long elsewhere = fleet.get(1).acquire();
        store.deliver();

        assertThat(refused).isEqualTo(CircuitBreaker.NOT_PERMITTED);
        assertThat(next).isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
        assertThat(fleet.get(1).acquire()).isEqualTo(CircuitBreaker.NOT_PERMITTED);
        assertThat(elsewhere).isEqualTo(CircuitBreaker.NOT_PERMITTED);
    }

    @Test
    void aLeaseTakenForACallerThatCouldNotWaitLapsesAndAnotherInstanceTakesItOver() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        fleet.get(0).acquire();
        store.deliver();
        assertThat(store.leases()).containsKey(MODEL);

        clock.advance(FleetProbe.CLAIM_WINDOW);
        Call elsewhere = Call.on(fleet.get(1));
        store.deliver();
        Call lapsed = Call.on(fleet.get(0));
        store.deliver();

        assertThat(elsewhere.permitted()).isTrue();
        assertThat(lapsed.refused()).isTrue();
    }

    @Test
    void anInstanceThatMissedTheFleetsCloseLearnsItWhenItAsksForTheProbe() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call probe = Call.on(fleet.get(0));
        store.deliver();
        store.loseMessages(true);
        fleet.get(0).onOutcome(probe.permit, Outcome.SUCCESS, FAST, 0L);
        store.deliver();
        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.HALF_OPEN);

        clock.advance(FleetProbe.RECHECK);
        Call call = Call.on(fleet.get(1));
        store.deliver();

        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.CLOSED);
        assertThat(call.permitted()).isTrue();
    }

    @Test
    void withoutTheStoreEveryInstanceProbesOnItsOwnAtOnce() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        store.down(true);

        Call waiting = Call.on(fleet.get(0));
        long cannotWait = fleet.get(1).acquire();

        assertThat(waiting.permitted()).isTrue();
        assertThat(cannotWait).isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
    }

    @Test
    void anAsynchronousGuardedCallWaitsForTheFleetsAnswerAndIsTheProbe() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Guard guard = Guard.builder("model").circuitBreaker(fleet.get(1)).manualClock(clock).build();
        AtomicInteger made = new AtomicInteger();

        CompletableFuture<String> answer = guard.executeAsync(() -> {
            made.incrementAndGet();
            return CompletableFuture.completedFuture("ok");
        });
        assertThat(answer).isNotDone();
        store.deliver();
        clock.runDueTasks();
        store.deliver();

        assertThat(answer).isCompletedWithValue("ok");
        assertThat(made).hasValue(1);
        assertThat(fleet).allSatisfy(breaker -> assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED));
    }

    @Test
    void anAsynchronousGuardedCallOnAnInstanceThatDoesNotProbeFailsFastWithoutACall() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        Call.on(fleet.get(0));
        store.deliver();
        Guard guard = Guard.builder("model").circuitBreaker(fleet.get(1)).manualClock(clock).build();
        AtomicInteger made = new AtomicInteger();

        CompletableFuture<String> answer = guard.executeAsync(() -> {
            made.incrementAndGet();
            return CompletableFuture.completedFuture("ok");
        });
        store.deliver();
        clock.runDueTasks();

        assertThat(made).hasValue(0);
        assertThat(answer).isCompletedExceptionally();
        assertThatThrownBy(answer::join).hasCauseInstanceOf(CircuitOpenException.class)
                .hasMessageContaining("another instance probes");
    }

    /** One call's permit as the breaker decides it: at once, or later for a call that waits. */
    private static final class Call implements LongConsumer {
        long permit = CircuitBreaker.PENDING;
        boolean decided;

        static Call on(CircuitBreaker breaker) {
            Call call = new Call();
            long permit = breaker.acquire(call);
            if (permit != CircuitBreaker.PENDING) {
                call.accept(permit);
            }
            return call;
        }

        @Override
        public void accept(long permit) {
            assertThat(decided).as("a permit is decided once").isFalse();
            this.decided = true;
            this.permit = permit;
        }

        boolean permitted() {
            return decided && permit != CircuitBreaker.NOT_PERMITTED;
        }

        boolean refused() {
            return decided && permit == CircuitBreaker.NOT_PERMITTED;
        }
    }
}
