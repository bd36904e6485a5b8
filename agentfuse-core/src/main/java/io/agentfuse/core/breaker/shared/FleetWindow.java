package io.agentfuse.core.breaker.shared;

/**
 * A rate trigger's window summed over the fleet: the calls in every instance's window and the
 * hits (failures, or slow calls) among them, as a {@link BreakerStateStore} adds them up.
 *
 * <p>Immutable and thread-safe.
 *
 * @param calls the calls in the instances' windows, at least 0
 * @param hits  the hits among them, at least 0
 */
public record FleetWindow(long calls, long hits) {

    /** Checks that both counts are at least 0. */
    public FleetWindow {
        if (calls < 0 || hits < 0) {
            throw new IllegalArgumentException("calls and hits must be >= 0, but were " + calls + " and " + hits);
        }
    }
}
