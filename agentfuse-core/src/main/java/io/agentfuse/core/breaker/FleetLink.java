package io.agentfuse.core.breaker;

import java.util.function.BooleanSupplier;

/**
 * What a breaker in a sharing registry asks of its fleet beyond publishing its transitions: the
 * fleet's one probe, and an operator's reset that changed nothing here but may elsewhere. A breaker
 * alone has none, and every HALF_OPEN of it probes.
 */
interface FleetLink {

    /**
     * Asks, without blocking, for {@code breaker}'s probe; calls {@code granted} if and when it is
     * this instance's, which answers whether the probe was still wanted (the state may have moved on).
     */
    void requestProbe(CircuitBreaker breaker, BooleanSupplier granted);

    /** An operator closed or reset {@code breaker} while it was CLOSED here: no transition, but the fleet should close. */
    void closedAgain(CircuitBreaker breaker, String reason);
}
