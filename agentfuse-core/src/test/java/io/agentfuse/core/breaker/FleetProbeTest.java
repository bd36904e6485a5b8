package io.agentfuse.core.breaker;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A tripped fleet recovers: when the open time ends, exactly one instance probes, starting with the
 * first call that reaches any instance, and its result reaches every instance (issue: a fleet whose
 * probe lease was asked for on a refused call never probed).
 */
class FleetProbeTest {

    private static final Duration OPEN = TrippedFleet.OPEN;
    private static final Duration PROBE_TIMEOUT = TrippedFleet.PROBE_TIMEOUT;
    private static final long FAST = TrippedFleet.FAST;

    private final TrippedFleet tripped = new TrippedFleet();
    private final ManualClock clock = tripped.clock;
    private final LoopbackStateStores store = tripped.store;

    private CircuitBreaker instance(int halfOpenRequests) {
        return tripped.instance(halfOpenRequests);
    }

    private List<CircuitBreaker> trippedFleetAfterItsOpenTime(int halfOpenRequests) {
        return tripped.afterItsOpenTime(halfOpenRequests);
    }

    @Test
    void whenTheOpenTimeEndsConcurrentCallsOnEveryInstanceMakeExactlyOneProbeTheFirstCall() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);

        FleetCall first = FleetCall.on(fleet.get(1));
        List<FleetCall> others = List.of(FleetCall.on(fleet.get(1)), FleetCall.on(fleet.get(0)), FleetCall.on(fleet.get(0)),
                FleetCall.on(fleet.get(2)), FleetCall.on(fleet.get(2)));
        store.deliver();

        assertThat(first.permitted()).as("the first call of the fleet probes").isTrue();
        assertThat(others).allSatisfy(call -> assertThat(call.refused()).isTrue());
        assertThat(store.leases()).hasSize(1);
    }

    @Test
    void aSuccessfulProbeClosesEveryInstanceAndEndsTheLease() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(2));
        FleetCall.on(fleet.get(0));
        store.deliver();

        fleet.get(2).onOutcome(probe.permit, Outcome.SUCCESS, FAST, 0L);
        store.deliver();

        assertThat(fleet).allSatisfy(breaker -> assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED));
        assertThat(store.leases()).isEmpty();
    }

    @Test
    void aFailedProbeOpensEveryInstanceAgain() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(0));
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

        FleetCall first = FleetCall.on(fleet.get(1));
        FleetCall elsewhere = FleetCall.on(fleet.get(0));
        store.deliver();
        List<FleetCall> next = List.of(FleetCall.on(fleet.get(1)), FleetCall.on(fleet.get(1)), FleetCall.on(fleet.get(1)));

        assertThat(first.permitted()).isTrue();
        assertThat(elsewhere.refused()).isTrue();
        assertThat(next).extracting(FleetCall::permitted).containsExactly(true, true, false);
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
        FleetCall call;
        do {
            clock.advance(Duration.ofMillis(500));
            call = FleetCall.on(fleet.get(turn++ % 3));
            store.deliver();
        } while (call.refused());

        assertThat(Duration.ofMillis(500L * turn)).as("the first call after the open time").isEqualTo(OPEN);
        assertThat(call.permitted()).isTrue();
        fleet.get((turn - 1) % 3).onOutcome(call.permit, Outcome.SUCCESS, FAST, 0L);
        store.deliver();
        assertThat(fleet).allSatisfy(breaker -> assertThat(FleetCall.on(breaker).permitted()).isTrue());
    }

    @Test
    void aCallOnAnInstanceThatDoesNotProbeIsRefusedForAtMostASecondAndThenItAsksAgain() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        FleetCall.on(fleet.get(0));
        store.deliver();
        FleetCall refused = FleetCall.on(fleet.get(1));
        store.deliver();
        int asked = store.leaseRequests();

        Rejection rejection = fleet.get(1).currentRejection();
        FleetCall again = FleetCall.on(fleet.get(1));

        assertThat(refused.refused()).isTrue();
        assertThat(rejection.message()).contains("HALF_OPEN").contains("another instance probes");
        assertThat(Duration.ofNanos(rejection.suggestedWaitNanos())).isPositive().isLessThanOrEqualTo(FleetProbe.RECHECK);
        assertThat(again.refused()).as("refused at once, without asking").isTrue();
        assertThat(store.leaseRequests()).isEqualTo(asked);

        clock.advance(FleetProbe.RECHECK);
        FleetCall later = FleetCall.on(fleet.get(1));
        assertThat(later.decided).as("asks the fleet again").isFalse();
        store.deliver();
        assertThat(later.refused()).as("the lease is still the prober's").isTrue();
    }

    @Test
    void aLeaseWhoseProbeWasNotMadeIsGivenBackAndTheNextCallElsewhereProbes() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        FleetCall notMade = FleetCall.on(fleet.get(0));
        FleetCall.on(fleet.get(1));
        store.deliver();

        fleet.get(0).release(notMade.permit);
        clock.advance(FleetProbe.RECHECK);
        FleetCall next = FleetCall.on(fleet.get(1));
        store.deliver();

        assertThat(next.permitted()).isTrue();
    }

    @Test
    void aProberThatNeverAnswersLosesTheLeaseAfterOneProbeTimeout() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        FleetCall lost = FleetCall.on(fleet.get(0));
        store.deliver();
        assertThat(lost.permitted()).isTrue();

        clock.advance(PROBE_TIMEOUT.minusSeconds(1));
        FleetCall before = FleetCall.on(fleet.get(2));
        store.deliver();
        clock.advance(Duration.ofSeconds(1));
        FleetCall after = FleetCall.on(fleet.get(2));
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
        assertThat(store.leases()).containsKey(TrippedFleet.MODEL);

        clock.advance(FleetProbe.CLAIM_WINDOW);
        FleetCall elsewhere = FleetCall.on(fleet.get(1));
        store.deliver();
        FleetCall lapsed = FleetCall.on(fleet.get(0));
        store.deliver();

        assertThat(elsewhere.permitted()).isTrue();
        assertThat(lapsed.refused()).isTrue();
    }

    @Test
    void anInstanceThatMissedTheFleetsCloseLearnsItWhenItAsksForTheProbe() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(0));
        store.deliver();
        store.loseMessages(true);
        fleet.get(0).onOutcome(probe.permit, Outcome.SUCCESS, FAST, 0L);
        store.deliver();
        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.HALF_OPEN);

        clock.advance(FleetProbe.RECHECK);
        FleetCall call = FleetCall.on(fleet.get(1));
        store.deliver();

        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.CLOSED);
        assertThat(call.permitted()).isTrue();
    }

    @Test
    void withoutTheStoreEveryInstanceProbesOnItsOwnAtOnce() {
        List<CircuitBreaker> fleet = trippedFleetAfterItsOpenTime(1);
        store.down(true);

        FleetCall waiting = FleetCall.on(fleet.get(0));
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
        FleetCall.on(fleet.get(0));
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
}
