package io.agentfuse.core.breaker;

import java.util.function.BooleanSupplier;

/**
 * Decides whether a breaker that just entered HALF_OPEN may probe: in a fleet, only the instance
 * that holds the fleet's probe lease does. Without a gate (a breaker alone) every HALF_OPEN probes.
 */
interface ProbeGate {

    /**
     * Asks, without blocking, for {@code breaker}'s probe; calls {@code granted} if and when it is
     * this instance's, which answers whether the probe was still wanted (the state may have moved on).
     */
    void request(CircuitBreaker breaker, BooleanSupplier granted);
}
