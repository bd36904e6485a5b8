package io.agentfuse.core.breaker;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;

/**
 * Shares one breaker's own transitions with the fleet ({@link FleetSync#shareOwn}): those worth
 * sharing (HALF_OPEN is each instance's own, decided with the probe lease), with the operator's reason
 * for an operator's state and the end of the open time for a trip. A transition applied from the fleet
 * is not shared again ({@link FleetSync} knows it from the thread). Confined to the breaker's listeners.
 */
final class FleetPublisher implements CircuitBreakerListener {

    private final CircuitBreaker breaker;
    private final FleetSync fleet;

    FleetPublisher(CircuitBreaker breaker, FleetSync fleet) {
        this.breaker = breaker;
        this.fleet = fleet;
    }

    @Override
    public void onStateTransition(StateTransition event) {
        if (event.to() != CircuitState.HALF_OPEN) {
            fleet.shareOwn(breaker, event.to(), reasonOf(event), event.counts(), openUntilEpochMillis(event.to()),
                    event.epochMillis());
        }
    }

    private String reasonOf(StateTransition event) {
        boolean operator = event.to() == CircuitState.FORCED_OPEN || event.to() == CircuitState.DISABLED;
        return operator ? breaker.rawState().reason() : event.reason();
    }

    private long openUntilEpochMillis(CircuitState to) {
        AbstractState now = breaker.rawState();
        if (to != CircuitState.OPEN || now.kind() != CircuitState.OPEN) {
            return 0L;
        }
        return breaker.clock().epochMillisAt(now.openUntilNanos());
    }
}
