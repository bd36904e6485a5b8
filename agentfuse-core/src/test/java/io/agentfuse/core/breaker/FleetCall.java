package io.agentfuse.core.breaker;

import java.util.function.LongConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/** One call's permit from a breaker in a fleet as the breaker decides it: at once, or later for a call that waits. */
final class FleetCall implements LongConsumer {

    long permit = CircuitBreaker.PENDING;
    boolean decided;

    /** Asks {@code breaker} for a permit, waiting (without a thread) if the fleet decides. */
    static FleetCall on(CircuitBreaker breaker) {
        FleetCall call = new FleetCall();
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
