package io.agentfuse.redis;

import io.agentfuse.core.breaker.shared.SharedBreakerState;

import java.time.Duration;

/**
 * How long a breaker's record ({@code <prefix>breaker:<name>}) stays in Redis, decided here alone,
 * so that breakers renamed, dropped from the config or made for a model once leave no key behind
 * for good. A record is kept as long as it can change what an instance does, and {@code keep} longer:
 * <ul>
 *   <li>CLOSED: {@code keep} from each write. A fresh breaker is CLOSED too, and versions keep
 *       growing without the record (each is at least Redis's clock in microseconds), so an expired
 *       close reads as a breaker that never tripped; {@code keep} lets an instance that missed the
 *       close (a lost message, a long outage) still read it when it resyncs.</li>
 *   <li>OPEN: the trip's own open time, then {@code keep}. No instance applies a trip whose open
 *       time has ended, so the record cannot expire while it still opens a breaker anywhere; an
 *       open time of over a year (not one a config gives) keeps it without an expiry.</li>
 *   <li>FORCED_OPEN, DISABLED: an operator's, until an operator ends it: no expiry. Writing one
 *       clears the expiry of the record it replaces, so a tripped or forced breaker is never closed
 *       fleet-wide by Redis forgetting it. HALF_OPEN is never written; the probe lease keeps its own
 *       expiry, the breaker's {@code probeTimeout}.</li>
 * </ul>
 * Immutable and thread-safe.
 */
final class RecordRetention {

    /** {@code keep} unless the store is built with another: a day, far beyond any outage a resync follows. */
    static final Duration DEFAULT_KEEP = Duration.ofDays(1);

    private static final long LONGEST_OPEN_MILLIS = Duration.ofDays(365).toMillis();

    private final long keepMillis;

    RecordRetention(Duration keep) {
        this.keepMillis = keep.toMillis();
    }

    /** The TTL of the record of {@code change} in milliseconds, at least 1; 0 for none. */
    long ttlMillis(SharedBreakerState change) {
        return switch (change.state()) {
            case CLOSED -> keepMillis;
            case OPEN -> openTtlMillis(change.openUntilEpochMillis() - change.epochMillis(), change.epochMillis());
            default -> 0L;
        };
    }

    private long openTtlMillis(long openMillis, long atEpochMillis) {
        if (atEpochMillis < 0 || openMillis > LONGEST_OPEN_MILLIS) {
            return 0L; // never a TTL that might end a trip early, nor one Redis refuses
        }
        return Math.max(0L, openMillis) + keepMillis;
    }
}
