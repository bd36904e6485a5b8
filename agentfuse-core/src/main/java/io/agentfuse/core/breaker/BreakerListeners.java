package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The listeners of one breaker, the one place that calls them, and its built-in rejection count. Reading the copy-on-write
 * array is one volatile read, so with no listener an event costs nothing more, and recorded calls
 * are handed only to the listeners that override {@code onCallRecorded}; a listener that throws
 * is ignored, because it must never break the call, rejection or transition it observes.
 */
final class BreakerListeners {

    private static final CircuitBreakerListener[] NONE = new CircuitBreakerListener[0];

    private final LongAdder rejections = new LongAdder();
    private volatile CircuitBreakerListener[] listeners = NONE;
    /** The listeners that override {@code onCallRecorded}: only they make every call pay. */
    private volatile CircuitBreakerListener[] recording = NONE;

    /** Whether a listener wants each recorded call (and so its duration). */
    boolean wantsRecordedCalls() {
        return recording.length != 0;
    }

    synchronized void add(CircuitBreakerListener listener) {
        Objects.requireNonNull(listener, "listener");
        listeners = appended(listeners, listener);
        if (overridesOnCallRecorded(listener)) {
            recording = appended(recording, listener);
        }
    }

    synchronized void remove(CircuitBreakerListener listener) {
        listeners = without(listeners, listener);
        recording = without(recording, listener);
    }

    private static CircuitBreakerListener[] appended(CircuitBreakerListener[] array, CircuitBreakerListener listener) {
        CircuitBreakerListener[] next = Arrays.copyOf(array, array.length + 1);
        next[next.length - 1] = listener;
        return next;
    }

    private static CircuitBreakerListener[] without(CircuitBreakerListener[] array, CircuitBreakerListener listener) {
        return Arrays.stream(array).filter(existing -> existing != listener).toArray(CircuitBreakerListener[]::new);
    }

    /**
     * Whether {@code listener} does anything with recorded calls. A listener that only counts
     * rejections or watches transitions (the admin API's, a dashboard's) must not make every
     * call read the clock twice and run a loop.
     */
    private static boolean overridesOnCallRecorded(CircuitBreakerListener listener) {
        try {
            return listener.getClass().getMethod("onCallRecorded", CircuitBreaker.class, Outcome.class, long.class)
                    .getDeclaringClass() != CircuitBreakerListener.class;
        } catch (NoSuchMethodException impossible) {
            return true;
        }
    }

    /** The calls rejected since the breaker was made. */
    long rejections() {
        return rejections.sum();
    }

    void recorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
        for (CircuitBreakerListener listener : recording) {
            try {
                listener.onCallRecorded(breaker, outcome, durationNanos);
            } catch (RuntimeException ignored) {
                // see the class comment
            }
        }
    }

    /** Counts a rejected call (the built-in count, listeners or not) and tells the listeners. */
    void rejected(CircuitBreaker breaker) {
        rejections.increment();
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
