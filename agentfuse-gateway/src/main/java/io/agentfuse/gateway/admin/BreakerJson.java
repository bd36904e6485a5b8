package io.agentfuse.gateway.admin;

import io.agentfuse.core.breaker.CircuitBreakerSnapshot;
import io.agentfuse.core.event.StateTransition;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * The admin API's JSON for breakers and their transitions:
 * <pre>
 * {"name": "model:claude-sonnet-4", "state": "OPEN", "reason": "consecutive5xx: 3 in a row (threshold 3)",
 *  "openUntil": "2025-01-01T12:05:00Z", "counts": {"consecutive5xx": 0, "rejected": 12}}
 * {"breaker": "model:claude-sonnet-4", "from": "CLOSED", "to": "OPEN", "reason": "...", "counts": {...},
 *  "at": "2025-01-01T12:00:00Z"}
 * </pre>
 * {@code openUntil} is ISO-8601 or {@code null}; counts are sorted by name. Stateless and thread-safe.
 */
public final class BreakerJson {

    private BreakerJson() {
    }

    /** One breaker. */
    public static JsonObject of(CircuitBreakerSnapshot snapshot) {
        return new JsonObject()
                .put("name", snapshot.name())
                .put("state", snapshot.state().name())
                .put("reason", snapshot.reason())
                .put("openUntil", snapshot.openUntil() == null ? null : snapshot.openUntil().toString())
                .put("counts", counts(snapshot.counts()));
    }

    /** One state transition, as the event stream sends it. */
    public static JsonObject of(StateTransition transition) {
        return new JsonObject()
                .put("breaker", transition.breaker())
                .put("from", transition.from().name())
                .put("to", transition.to().name())
                .put("reason", transition.reason())
                .put("counts", counts(transition.counts()))
                .put("at", Instant.ofEpochMilli(transition.epochMillis()).toString());
    }

    private static JsonObject counts(Map<String, Long> counts) {
        JsonObject json = new JsonObject();
        new TreeMap<>(counts).forEach(json::put);
        return json;
    }
}
