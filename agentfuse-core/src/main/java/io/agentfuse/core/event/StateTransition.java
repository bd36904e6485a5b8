package io.agentfuse.core.event;

import io.agentfuse.core.breaker.CircuitState;

import java.util.Map;

/**
 * One change of a breaker's state. Exactly one is published per transition, by the thread that
 * performed it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param breaker     the breaker's name
 * @param from        the state left
 * @param to          the state entered
 * @param reason      why: the trigger that fired with its counts, "probe succeeded", "operator", …
 * @param counts      the counters at the moment of the transition (trigger streaks, window sizes)
 * @param epochMillis when it happened, on the breaker's clock
 */
public record StateTransition(String breaker, CircuitState from, CircuitState to, String reason,
                              Map<String, Long> counts, long epochMillis) {

    /** Copies {@code counts}. */
    public StateTransition {
        counts = Map.copyOf(counts);
    }
}
