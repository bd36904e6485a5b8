package io.agentfuse.core.breaker;

import java.time.Instant;
import java.util.Map;

/**
 * A point-in-time view of a breaker for operators (the admin API, dashboards, logs).
 *
 * @param name      the breaker's name
 * @param state     its state
 * @param reason    why it is in that state ("" for a plain CLOSED)
 * @param openUntil when an OPEN breaker lets calls through again; {@code null} otherwise
 * @param counts    trigger streaks, window sizes and probes; while OPEN, those that tripped it
 * @param rejectedCalls calls the breaker has rejected since it was made
 */
public record CircuitBreakerSnapshot(String name, CircuitState state, String reason, Instant openUntil,
                                     Map<String, Long> counts, long rejectedCalls) {

    /** Copies {@code counts}. */
    public CircuitBreakerSnapshot {
        counts = Map.copyOf(counts);
    }
}
