package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance asks for the probe lease knowing less than the store: another instance's trip never
 * reached it (a lost message). When that trip's open time is over too, the change the store answers
 * with leaves this instance's breaker HALF_OPEN, as it was: no news, so it asks again and probes
 * (regression: the call was refused, and every call here for a second, with nobody holding the lease).
 * A trip still open elsewhere, in the same place, opens the breaker and refuses the call.
 */
class FleetProbeAfterMissedTripTest {

    /** How long after this instance's trip the one it missed was made. */
    private static final Duration MISSED_TRIP_LATER = Duration.ofMinutes(1);

    private final TrippedFleet tripped = new TrippedFleet();
    private final ManualClock clock = tripped.clock;
    private final LoopbackStateStores store = tripped.store;

    @Test
    void aMissedTripWhoseOpenTimeIsOverTooIsNoReasonToRefuseTheProbe() {
        CircuitBreaker asker = missedALaterTrip();
        clock.advance(TrippedFleet.OPEN.plus(MISSED_TRIP_LATER)); // both open times are over

        FleetCall probe = FleetCall.on(asker);
        store.deliver();

        assertThat(probe.permitted()).as("the first call after both open times probes").isTrue();
        asker.onOutcome(probe.permit, Outcome.SUCCESS, TrippedFleet.FAST, 0L);
        store.deliver();
        assertThat(asker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(store.leases()).isEmpty();
    }

    @Test
    void aMissedTripStillOpenElsewhereOpensTheBreakerAndRefusesTheCall() {
        CircuitBreaker asker = missedALaterTrip();
        clock.advance(TrippedFleet.OPEN.minus(MISSED_TRIP_LATER)); // its own trip's open time is over, the other's not

        FleetCall call = FleetCall.on(asker);
        store.deliver();

        assertThat(call.refused()).isTrue();
        assertThat(asker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(store.leases()).isEmpty();
    }

    /** An instance that tripped, then missed another instance's trip a minute later: open until its own trip's end. */
    private CircuitBreaker missedALaterTrip() {
        CircuitBreaker asker = tripped.instance(1);
        CircuitBreaker other = tripped.instance(1);
        store.deliver();
        store.loseMessages(true);
        trip(asker);
        clock.advance(MISSED_TRIP_LATER);
        trip(other);
        store.loseMessages(false);
        assertThat(asker.state()).isEqualTo(CircuitState.OPEN);
        return asker;
    }

    private void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, TrippedFleet.FAST);
        }
        store.deliver();
    }
}
