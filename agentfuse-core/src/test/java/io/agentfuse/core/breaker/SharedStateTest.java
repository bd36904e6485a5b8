package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.shared.SharedBreakerState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Registries on one store behave as a fleet: trips and operator actions apply everywhere, once (probes: {@link FleetProbeTest}). */
class SharedStateTest {

    private static final String MODEL = "model:gpt-4o-mini";
    private static final long FAST = Duration.ofMillis(20).toNanos();

    private final ManualClock clock = new ManualClock();
    private final LoopbackStateStores store = new LoopbackStateStores(clock);
    private final CircuitBreakerRegistry a = instance();
    private final CircuitBreakerRegistry b = instance();

    private CircuitBreakerRegistry instance() {
        return CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(CircuitBreakerConfig.builder()
                        .trigger(Trigger.consecutive5xx(3))
                        .resetTimeout(Duration.ofMinutes(5))
                        .build())
                .stateStore(store.connect())
                .build();
    }

    private void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 3; i++) {
            Unstamped.outcome(breaker, Outcome.SERVER_ERROR, FAST);
        }
    }

    @Test
    void aTripOnOneInstanceOpensTheSameBreakerOnTheOthersWithItsEvidence() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        store.deliver();

        trip(onA);
        store.deliver();

        assertThat(onB.state()).isEqualTo(CircuitState.OPEN);
        assertThat(onB.snapshot().reason()).isEqualTo(onA.snapshot().reason());
        assertThat(onB.snapshot().counts()).containsEntry("consecutive5xx", 3L);
        assertThat(onB.snapshot().openUntil()).isEqualTo(onA.snapshot().openUntil());
    }

    @Test
    void aChangeAppliedFromTheFleetIsNotSharedAgain() {
        a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        List<StateTransition> seenOnB = new ArrayList<>();
        onB.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(StateTransition event) {
                seenOnB.add(event);
            }
        });

        trip(a.breaker(MODEL));
        store.deliver();

        assertThat(store.published()).hasSize(1);
        assertThat(seenOnB).singleElement().satisfies(event -> {
            assertThat(event.to()).isEqualTo(CircuitState.OPEN);
            assertThat(event.reason()).startsWith("fleet: ");
        });
    }

    @Test
    void aRepeatedOrOlderChangeIsIgnored() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        onA.forceOpen("maintenance");
        store.deliver();
        SharedBreakerState forced = store.published().get(0);
        onA.close("maintenance over");
        store.deliver();
        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);

        store.broadcast(forced);
        store.broadcast(store.published().get(1));
        store.deliver();

        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(store.published()).hasSize(2);
    }

    @Test
    void operatorActionsApplyFleetWide() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);

        onA.forceOpen("maintenance");
        store.deliver();
        assertThat(onB.state()).isEqualTo(CircuitState.FORCED_OPEN);
        assertThat(onB.snapshot().reason()).isEqualTo("maintenance");

        onB.disable("load test");
        store.deliver();
        assertThat(onA.state()).isEqualTo(CircuitState.DISABLED);

        onA.reset();
        store.deliver();
        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anOperatorsResetOnAnInstanceWhereTheBreakerIsClosedStillClosesTheOthers() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        store.deliver();
        store.down(true);
        trip(onA);
        store.down(false);

        onB.reset();
        store.deliver();

        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(onA.state()).as("the reset is newer than A's unshared trip").isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aNewInstanceCatchesUpWhenItMakesTheBreaker() {
        trip(a.breaker(MODEL));
        store.deliver();

        CircuitBreaker late = instance().breaker(MODEL);
        store.deliver();

        assertThat(late.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aBreakerReplacedWithNewSettingsTakesTheFleetsState() {
        a.breaker(MODEL);
        b.breaker(MODEL);
        trip(a.breaker(MODEL));
        store.deliver();

        CircuitBreaker replaced = b.replace(MODEL, CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(5)).resetTimeout(Duration.ofMinutes(5)).build());
        store.deliver();

        assertThat(replaced.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aTripMadeWhileTheStoreWasAwayIsSharedWhenItReturns() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        store.deliver();
        store.down(true);

        trip(onA);
        store.deliver();
        assertThat(onA.state()).isEqualTo(CircuitState.OPEN);
        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);

        store.down(false);
        store.deliver();

        assertThat(onB.state()).isEqualTo(CircuitState.OPEN);
        assertThat(store.published()).hasSize(1);
    }

    @Test
    void aChangeTheStoreMissedIsDroppedOnceALaterOneIsShared() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        store.deliver();
        store.down(true);
        onA.forceOpen("during the outage");
        store.down(false);

        onA.close("after the outage");
        store.deliver();

        assertThat(store.published()).extracting(SharedBreakerState::state).containsExactly(CircuitState.CLOSED);
        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anOperatorStateIsNotOverriddenByAnotherInstancesTrip() {
        CircuitBreaker onA = a.breaker(MODEL);
        CircuitBreaker onB = b.breaker(MODEL);
        store.down(true);
        onB.forceOpen("kept shut");
        store.down(false);

        trip(onA);
        store.deliver();

        assertThat(onB.state()).isEqualTo(CircuitState.FORCED_OPEN);
        assertThat(Map.of("state", onB.snapshot().reason())).containsEntry("state", "kept shut");
    }
}
