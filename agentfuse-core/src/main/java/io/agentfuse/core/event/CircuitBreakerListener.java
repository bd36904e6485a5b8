package io.agentfuse.core.event;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.Outcome;

/**
 * Receives a breaker's events. Every method has an empty default, so a listener implements only
 * what it needs.
 *
 * <p>Listeners run synchronously on the thread that caused the event, so they must be fast and
 * must not throw (a thrown exception is caught and ignored so that it cannot break the call).
 * Per-call events pass primitives, not event objects, so that a listener adds no allocation.
 * With no listener registered, nothing at all is done for events.
 *
 * <pre>{@code
 * breaker.addListener(new CircuitBreakerListener() {
 *     public void onStateTransition(StateTransition event) {
 *         log.warn("{} {} -> {}: {}", event.breaker(), event.from(), event.to(), event.reason());
 *     }
 * });
 * }</pre>
 */
public interface CircuitBreakerListener {

    /** The breaker changed state. */
    default void onStateTransition(StateTransition event) {
    }

    /** A call was rejected without being made. */
    default void onCallRejected(CircuitBreaker breaker) {
    }

    /** A call's outcome was recorded. */
    default void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
    }

    /**
     * The registry dropped {@code breaker} (removed, or evicted while idle): told only to the
     * listeners added to a {@link io.agentfuse.core.breaker.CircuitBreakerRegistry}, which are
     * detached from the breaker first. What a listener keeps per breaker (meters, say) can go.
     */
    default void onRemoved(CircuitBreaker breaker) {
    }
}
