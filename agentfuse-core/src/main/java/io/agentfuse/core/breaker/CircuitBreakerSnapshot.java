package io.agentfuse.core.breaker;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A point-in-time view of a breaker for operators (the admin API, dashboards, logs).
 *
 * <pre>{@code
 * CircuitBreakerSnapshot snapshot = breaker.snapshot();
 * long errorsInARow = snapshot.triggerCounts().streak("consecutiveErrors").orElse(0L);
 * }</pre>
 *
 * @param name          the breaker's name
 * @param state         its state
 * @param reason        why it is in that state ("" for a plain CLOSED)
 * @param openUntil     when an OPEN breaker lets calls through again; {@code null} otherwise
 * @param triggerCounts trigger streaks, windows and probes, typed; while OPEN, those that tripped it
 * @param rejectedCalls calls the breaker has rejected since it was made
 */
public record CircuitBreakerSnapshot(String name, CircuitState state, String reason, Instant openUntil,
                                     BreakerCounts triggerCounts, long rejectedCalls) {

    /** Checks that the counts are there. */
    public CircuitBreakerSnapshot {
        Objects.requireNonNull(triggerCounts, "triggerCounts");
    }

    /** The counts in their flat form ({@link BreakerCounts#asMap()}), as the admin API writes them. */
    public Map<String, Long> counts() {
        return triggerCounts.asMap();
    }
}
