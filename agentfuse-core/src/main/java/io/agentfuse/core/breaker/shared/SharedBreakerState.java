package io.agentfuse.core.breaker.shared;

import io.agentfuse.core.breaker.CircuitState;

import java.util.Map;
import java.util.Objects;

/**
 * One change of a breaker's state that an instance shares with its fleet, with its evidence.
 *
 * <p>The store gives each change of a breaker a version when it is published, higher than every
 * version that breaker had before; a change is applied only where it is newer than the last one
 * seen, so its order is the store's and a late or repeated message changes nothing.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * SharedBreakerState trip = SharedBreakerState.unpublished("model:gpt-4o-mini", CircuitState.OPEN,
 *     "consecutive5xx: 3 in a row", Map.of("consecutive5xx", 3L), openUntil, "instance-a", now);
 * }</pre>
 *
 * @param breaker              the breaker's name
 * @param version              the store's version of this change; 0 before it is published
 * @param state                what the breaker became: {@code OPEN} (tripped), {@code FORCED_OPEN},
 *                             {@code DISABLED} or {@code CLOSED}; never {@code HALF_OPEN}, which
 *                             each instance reaches on its own time
 * @param reason               why: the trigger that fired, or the operator's reason
 * @param counts               the counts that tripped it (the flat form of the admin API)
 * @param openUntilEpochMillis when a tripped breaker lets probes through again; 0 for other states
 * @param origin               the instance that made the change
 * @param epochMillis          when it was made, on that instance's clock
 */
public record SharedBreakerState(String breaker, long version, CircuitState state, String reason,
                                 Map<String, Long> counts, long openUntilEpochMillis, String origin,
                                 long epochMillis) {

    /** Checks the fields and copies {@code counts}. */
    public SharedBreakerState {
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(origin, "origin");
        if (state == CircuitState.HALF_OPEN) {
            throw new IllegalArgumentException("state must not be HALF_OPEN: each instance probes on its own time");
        }
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0, but was " + version);
        }
        counts = Map.copyOf(counts);
    }

    /** A change not published yet (version 0). */
    public static SharedBreakerState unpublished(String breaker, CircuitState state, String reason,
                                                 Map<String, Long> counts, long openUntilEpochMillis,
                                                 String origin, long epochMillis) {
        return new SharedBreakerState(breaker, 0L, state, reason, counts, openUntilEpochMillis, origin, epochMillis);
    }

    /** This change with the version the store gave it. */
    public SharedBreakerState withVersion(long version) {
        return new SharedBreakerState(breaker, version, state, reason, counts, openUntilEpochMillis, origin, epochMillis);
    }
}
