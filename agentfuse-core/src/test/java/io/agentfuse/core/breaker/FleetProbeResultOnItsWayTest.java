package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance that asks for the probe lease while the probe's result is on its way to it learns the
 * result and acts on it, instead of refusing its call as if the probe were still under way
 * (regression, seen on a fleet of gateways on Redis: a probe closed the breaker on one at t, a
 * second one's own open time ran out at t+3 ms, it asked for the lease, was told another instance
 * held it and answered its call 503 {@code circuit_open} with {@code Retry-After: 1}; the close
 * reached it at t+7 ms). The order of the events is the test's, through the store's queue: no timing.
 */
class FleetProbeResultOnItsWayTest {

    private final TrippedFleet tripped = new TrippedFleet();
    private final LoopbackStateStores store = tripped.store;

    @Test
    void aCallThatAsksJustBeforeTheProbesCloseReachesTheStoreIsServedOnceItArrives() {
        List<CircuitBreaker> fleet = tripped.afterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(0));
        store.deliver();
        assertThat(probe.permitted()).as("the first call probes").isTrue();

        FleetCall asking = FleetCall.on(fleet.get(1)); // the store finds the lease still held
        fleet.get(0).onOutcome(probe.permit, Outcome.SUCCESS, TrippedFleet.FAST, 0L); // the close follows
        store.deliver();

        assertThat(asking.permitted()).as("the fleet is closed: the call is served").isTrue();
        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.CLOSED);
        assertThat(store.leases()).as("no lease: nobody probes a closed breaker").isEmpty();
    }

    @Test
    void aCallThatAsksJustBeforeTheProbesTripReachesTheStoreIsRefusedForTheNewOpenTime() {
        List<CircuitBreaker> fleet = tripped.afterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(0));
        store.deliver();

        FleetCall asking = FleetCall.on(fleet.get(1));
        fleet.get(0).onOutcome(probe.permit, Outcome.SERVER_ERROR, TrippedFleet.FAST, 0L);
        store.deliver();

        assertThat(asking.refused()).isTrue();
        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.OPEN);
        assertThat(fleet.get(1).currentRejection().message()).doesNotContain("another instance probes");
    }

    @Test
    void whileTheProbeGoesOnACallElsewhereIsStillRefusedAndNoSecondProbeIsMade() {
        List<CircuitBreaker> fleet = tripped.afterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(0));
        store.deliver();

        FleetCall asking = FleetCall.on(fleet.get(1));
        store.deliver();

        assertThat(probe.permitted()).isTrue();
        assertThat(asking.refused()).as("one probe at a time while the breaker is really open").isTrue();
        assertThat(fleet.get(1).currentRejection().message()).contains("another instance probes");
    }

    @Test
    void aCloseThatReachesTheInstanceBeforeTheStoresAnswerLetsTheWaitingCallThrough() {
        List<CircuitBreaker> fleet = tripped.afterItsOpenTime(1);
        FleetCall probe = FleetCall.on(fleet.get(0));
        store.deliver();
        // The close as its message, delivered ahead of the lease's answer, which the store decided before the close.
        store.broadcast(new SharedBreakerState(TrippedFleet.MODEL, 1_000, CircuitState.CLOSED, "half-open probes succeeded",
                Map.of(), 0L, "the prober", tripped.clock.epochMillis()));

        FleetCall asking = FleetCall.on(fleet.get(1));
        store.deliver();

        assertThat(probe.permitted()).isTrue();
        assertThat(fleet.get(1).state()).isEqualTo(CircuitState.CLOSED);
        assertThat(asking.permitted()).as("the state it waited on was closed meanwhile").isTrue();
        assertThat(store.leaseRequests()).as("the prober's and the asker's: nobody asks for a closed breaker's lease")
                .isEqualTo(2);
        assertThat(store.leases()).as("the prober's, as it was").containsOnlyKeys(TrippedFleet.MODEL);
    }
}
