package io.agentfuse.gateway.mcp;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;

/**
 * The permit of the server breaker ({@code mcp:<server>}) that one proxied request took: settled
 * once, by recording an outcome or giving it back, against the state that granted it, so that an
 * answer arriving after the breaker moved on (reset, tripped, probing) is not counted there.
 *
 * @param breaker the server's breaker
 * @param permit  the stamp {@link CircuitBreaker#acquire()} gave, or {@link CircuitBreaker#NOT_PERMITTED}
 */
record ServerPermit(CircuitBreaker breaker, long permit) {

    /** Asks {@code breaker} for a permit. */
    static ServerPermit of(CircuitBreaker breaker) {
        return new ServerPermit(breaker, breaker.acquire());
    }

    /** Whether the request may reach the server. */
    boolean granted() {
        return permit != CircuitBreaker.NOT_PERMITTED;
    }

    /** Records how the exchange with the server ended. */
    void record(Outcome outcome) {
        breaker.onOutcome(permit, outcome, -1L, RetryAfter.NONE);
    }

    /** Gives the permit back: the exchange says nothing about the server (a timeout, a caller who left). */
    void release() {
        breaker.release(permit);
    }
}
