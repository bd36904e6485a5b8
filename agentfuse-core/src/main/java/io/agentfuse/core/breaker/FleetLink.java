package io.agentfuse.core.breaker;

import java.time.Duration;

/**
 * What a breaker in a sharing registry asks of its fleet beyond publishing its transitions: the
 * fleet's one probe lease, and an operator's reset that changed nothing here but may elsewhere. A
 * breaker alone has none, and every HALF_OPEN of it probes.
 */
interface FleetLink {

    /**
     * Asks, without blocking, whether this instance holds {@code breaker}'s probe lease for
     * {@code ttl}; the answer goes to {@code probe} (on the store's thread, or on the caller's if the
     * store fails at once): {@link FleetProbe#granted}, {@link FleetProbe#heldElsewhere},
     * {@link FleetProbe#superseded} after applying the fleet's newer change, or
     * {@link FleetProbe#storeAway} when the store cannot answer.
     */
    void requestProbe(CircuitBreaker breaker, Duration ttl, FleetProbe probe);

    /** Extends this instance's lease of {@code breaker} to {@code ttl}; fire and forget. */
    void renewProbe(CircuitBreaker breaker, Duration ttl);

    /** Gives {@code breaker}'s lease back, unused; fire and forget. */
    void releaseProbe(CircuitBreaker breaker);

    /** An operator closed or reset {@code breaker} while it was CLOSED here: no transition, but the fleet should close. */
    void closedAgain(CircuitBreaker breaker, String reason);
}
