package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;

/**
 * A result whose call goes on after the guard returns it: a stream that has produced its first
 * event and may still break. The guard does not record such a result as a success; it hands the
 * result the breaker's permit instead, and the result records the call's final outcome against
 * it when the stream ends (DESIGN §3), so a provider whose streams always break mid-way trips
 * its breaker. An ordinary result just answers {@code false}.
 *
 * <pre>{@code
 * record Answer(Stream stream, Permit permit) implements LongCall {
 *     public boolean holdPermit(CircuitBreaker breaker, long permit) {
 *         if (stream == null) return false;         // a complete answer: the guard records it
 *         this.permit.hold(breaker, permit);        // recorded when the stream ends
 *         return true;
 *     }
 * }
 * }</pre>
 */
public interface LongCall {

    /**
     * Takes the permit the attempt ran under, or declines it.
     *
     * @return {@code true} if this result will report exactly one outcome (or release) with
     *         {@code permit} later; {@code false} to let the guard record it now
     */
    boolean holdPermit(CircuitBreaker breaker, long permit);
}
