package io.agentfuse.core.breaker.shared;

import java.util.Objects;
import java.util.Optional;

/**
 * A store's answer to an instance that asks for a breaker's half-open probe lease
 * ({@link BreakerStateStore#tryProbeLease}): the lease is the asker's now, or another instance
 * holds it (and for how much longer), or the fleet has moved on since the change the asker last
 * saw (a close or a new trip it missed), which comes with the answer.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * ProbeLease answer = ProbeLease.heldElsewhere(850);
 * if (answer.status() == ProbeLease.Status.HELD_ELSEWHERE) { ... ask again within answer.remainingMillis() }
 * }</pre>
 *
 * @param status          what the store decided
 * @param remainingMillis how long the lease lasts from now: the asker's for {@code GRANTED}, the other
 *                        holder's for {@code HELD_ELSEWHERE}; 0 for {@code SUPERSEDED}
 * @param newer           the fleet's newer change for {@code SUPERSEDED}, empty otherwise (and empty when
 *                        the store knows of one but cannot hand it over)
 */
public record ProbeLease(Status status, long remainingMillis, Optional<SharedBreakerState> newer) {

    /** What the store decided. */
    public enum Status {
        /** The asker holds the lease (asking again while holding it renews it): it probes. */
        GRANTED,
        /** Another instance holds the lease: its probes decide, and the asker lets no call through. */
        HELD_ELSEWHERE,
        /** The breaker changed since the version the asker gave: the asker applies the change, no lease. */
        SUPERSEDED
    }

    /** Checks the fields. */
    public ProbeLease {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(newer, "newer");
        if (remainingMillis < 0) {
            throw new IllegalArgumentException("remainingMillis must be >= 0, but was " + remainingMillis);
        }
    }

    /** The asker holds the lease for {@code millis}. */
    public static ProbeLease granted(long millis) {
        return new ProbeLease(Status.GRANTED, millis, Optional.empty());
    }

    /** Another instance holds the lease for {@code millis} more. */
    public static ProbeLease heldElsewhere(long millis) {
        return new ProbeLease(Status.HELD_ELSEWHERE, millis, Optional.empty());
    }

    /** The fleet moved on past the asker's version; {@code newer} is its latest change, if the store could read it. */
    public static ProbeLease superseded(Optional<SharedBreakerState> newer) {
        return new ProbeLease(Status.SUPERSEDED, 0L, newer);
    }
}
