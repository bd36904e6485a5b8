package io.agentfuse.core;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The listeners of one breaker, and the one place that calls them. Reading the copy-on-write
 * array is one volatile read, so with no listener an event costs nothing more; a listener that
 * throws is ignored, because it must never break the call, rejection or transition it observes.
 */
final class BreakerListeners {

    private static final CircuitBreakerListener[] NONE = new CircuitBreakerListener[0];

    private volatile CircuitBreakerListener[] listeners = NONE;

    boolean isEmpty() {
        return listeners.length == 0;
    }

    synchronized void add(CircuitBreakerListener listener) {
        Objects.requireNonNull(listener, "listener");
        CircuitBreakerListener[] next = Arrays.copyOf(listeners, listeners.length + 1);
        next[next.length - 1] = listener;
        listeners = next;
    }

    synchronized void remove(CircuitBreakerListener listener) {
        listeners = Arrays.stream(listeners).filter(existing -> existing != listener)
                .toArray(CircuitBreakerListener[]::new);
    }

    void recorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
        for (CircuitBreakerListener listener : listeners) {
            try {
                listener.onCallRecorded(breaker, outcome, durationNanos);
            } catch (RuntimeException ignored) {
                // see the class comment
            }
        }
    }

    void rejected(CircuitBreaker breaker) {
        for (CircuitBreakerListener listener : listeners) {
            try {
                listener.onCallRejected(breaker);
            } catch (RuntimeException ignored) {
                // see the class comment
            }
        }
    }

    /** Publishes the transition made by {@code event}, which is built only if someone listens. */
    void transitioned(Supplier<StateTransition> event) {
        CircuitBreakerListener[] current = listeners;
        if (current.length == 0) {
            return;
        }
        StateTransition transition = event.get();
        for (CircuitBreakerListener listener : current) {
            try {
                listener.onStateTransition(transition);
            } catch (RuntimeException ignored) {
                // see the class comment
            }
        }
    }
}
