package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The instance that tripped a breaker may get the first call after the open time before its trip's
 * version came back from the store (the publish is answered a round trip later, much later on a busy
 * machine): it asks for the probe lease knowing no version, and the store answers with the trip as
 * a change it missed. Its own trip is no news, so it asks again and probes (regression: the call
 * was refused, and the instance refused every call for a second while nobody held the lease; a
 * gateway fleet on a manual clock refused them all, and its test waited in vain for the probe).
 * The store's "thread" runs only when the test says ({@link LoopbackStateStores#deliver()}), so the
 * publish's answer is still on its way when the call asks.
 */
class FleetProbeAfterOwnTripTest {

    private final TrippedFleet tripped = new TrippedFleet();
    private final ManualClock clock = tripped.clock;
    private final LoopbackStateStores store = tripped.store;

    @Test
    void theFirstCallAfterTheOpenTimeOnTheTrippingInstanceProbesBeforeItsTripsVersionCameBack() {
        CircuitBreaker tripper = tripped.instance(1);
        store.deliver();
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(tripper, Outcome.SERVER_ERROR, TrippedFleet.FAST);
        }
        clock.advance(TrippedFleet.OPEN);

        FleetCall probe = FleetCall.on(tripper);
        store.deliver();

        assertThat(probe.permitted()).as("the tripping instance's first call after the open time probes").isTrue();
        assertThat(store.leases()).containsOnlyKeys(TrippedFleet.MODEL);
        tripper.onOutcome(probe.permit, Outcome.SUCCESS, TrippedFleet.FAST, 0L);
        store.deliver();
        assertThat(tripper.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(store.leases()).isEmpty();
    }
}
