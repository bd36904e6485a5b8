package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;
import io.agentfuse.core.event.StateTransition;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The transitions of one {@link CircuitBreaker}: trips, operator installs and the event each
 * publishes. A transition is a CAS on the breaker's state, so exactly one thread makes it and
 * publishes its event; a transition that leaves the visible state as it was (a reset of a CLOSED
 * breaker) publishes none, except a lost probe written off ({@link #writeOffProbes}), which operators
 * must see.
 */
final class Transitions {

    private final CircuitBreaker breaker;
    /** Set once by a registry that shares state; read only on transitions and operator actions. */
    private volatile FleetLink fleet;

    Transitions(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /** The fleet this breaker's changes are shared with, or {@code null}. */
    FleetLink fleet() {
        return fleet;
    }

    void link(FleetLink fleet) {
        this.fleet = fleet;
    }

    /** Installs a fresh state; {@code unless} names an operator state that is kept as it is. */
    void install(CircuitState unless, Supplier<AbstractState> next, String reason) {
        AbstractState current;
        AbstractState fresh = null;
        do {
            current = breaker.rawState();
            if (current.kind() == unless) {
                return;
            }
            fresh = fresh != null ? fresh : next.get();
        } while (!transition(current, fresh, reason));
    }

    /** An operator's {@code kind} (FORCED_OPEN or DISABLED); nothing happens if the breaker is in it already. */
    void installOperatorState(CircuitState kind, String reason) {
        install(kind, () -> new OperatorState(breaker, kind, reason), "operator: " + reason);
    }

    /**
     * CLOSED with fresh counters and no memory of earlier trips, whatever the state. Closing a
     * CLOSED breaker publishes no event, but in a fleet the others are told: they may be open.
     */
    void closeAfresh(String reason) {
        boolean wasClosed = breaker.rawState().kind() == CircuitState.CLOSED;
        install(null, () -> new ClosedState(breaker, breaker.clock().nanoTime()), reason);
        FleetLink fleet = this.fleet;
        if (wasClosed && fleet != null) {
            fleet.closedAgain(breaker, reason);
        }
    }

    /** OPEN to HALF_OPEN now (user-led mode's way out); whether it moved. */
    boolean probeNow() {
        AbstractState current = breaker.rawState();
        return current instanceof OpenState open
                && transition(current, new HalfOpenState(breaker, open.trip()), "probe requested");
    }

    /** Opens a CLOSED or HALF_OPEN breaker for at least {@code nanos}, extends an OPEN one, leaves operator states alone. */
    void holdOpen(long nanos, String reason) {
        AbstractState current = breaker.rawState();
        if (current instanceof OpenState open) {
            open.extendUntil(breaker.clock().nanoTime() + nanos);
        } else if (current instanceof ClosedState || current instanceof HalfOpenState) {
            trip(current, reason, nanos);
        }
    }

    // ---------------------------------------------------------------- changes another instance shared

    /**
     * Opens a CLOSED or HALF_OPEN breaker until {@code untilNanos}, as another instance's trip did,
     * with that trip's reason and counts (a probe that failed elsewhere reopens it with its reason);
     * extends an OPEN one; leaves operator states alone.
     */
    void openShared(String reason, long untilNanos, BreakerCounts counts) {
        AbstractState current = breaker.rawState().current(); // an OPEN whose time is over is HALF_OPEN
        while (current instanceof ClosedState || current instanceof HalfOpenState) {
            OpenState open = new OpenState(breaker, reason, current.nextTrip(), untilNanos, counts);
            if (transition(current, open, "fleet: " + reason)) {
                return;
            }
            current = breaker.rawState();
        }
        if (current instanceof OpenState open) {
            open.extendUntil(untilNanos);
        }
    }

    /** CLOSED afresh, as another instance's close or probe did; a CLOSED breaker keeps its counters. */
    void closeShared(String reason) {
        if (breaker.rawState().kind() != CircuitState.CLOSED) {
            closeAfresh("fleet: " + reason);
        }
    }

    // ---------------------------------------------------------------- transitions

    /** Opens the breaker from {@code from}, for at least {@code retryAfterNanos}. */
    void trip(AbstractState from, String reason, long retryAfterNanos) {
        long now = breaker.clock().nanoTime();
        int trip = from.nextTrip();
        double unit = breaker.config().openBackoff().jitter() == 0.0 ? 0.0 : ThreadLocalRandom.current().nextDouble();
        long openNanos = breaker.config().openBackoff().openNanos(breaker.config().resetTimeout().toNanos(), trip, unit);
        BreakerCounts counts = countsOf(from, now);
        transition(from, new OpenState(breaker, reason, trip, now + Math.max(openNanos, retryAfterNanos), counts), reason);
    }

    /** Installs {@code to} if the state is still {@code from}; the winner publishes the event. */
    boolean transition(AbstractState from, AbstractState to, String reason) {
        return transition(from, to, reason, from.kind() != to.kind());
    }

    /**
     * HALF_OPEN afresh in place of {@code from}, whose probe went out and was not answered within
     * {@code probeTimeout}. Published although the state's kind stays (HALF_OPEN to HALF_OPEN,
     * "probe expired without an answer"), so operators see a callee that swallows probes.
     */
    boolean writeOffProbes(HalfOpenState from, HalfOpenState fresh) {
        return transition(from, fresh, "probe expired without an answer", true);
    }

    private boolean transition(AbstractState from, AbstractState to, String reason, boolean publish) {
        if (!breaker.compareAndSetState(from, to)) {
            return false;
        }
        if (publish) {
            breaker.listeners().transitioned(() -> new StateTransition(breaker.name(), from.kind(), to.kind(), reason,
                    countsOf(from, breaker.clock().nanoTime()).asMap(), breaker.clock().epochMillis()));
        }
        return true;
    }

    static BreakerCounts countsOf(AbstractState of, long now) {
        BreakerCounts.Builder counts = new BreakerCounts.Builder();
        of.addCounts(counts, now);
        return counts.build();
    }

    /** What operators see of {@code breaker} in {@code current}: state, reason, open-until, counts, rejections. */
    static CircuitBreakerSnapshot snapshotOf(CircuitBreaker breaker, AbstractState current, long rejectedCalls) {
        Clock clock = breaker.clock();
        // As a rejected caller is told: none while only the user or an operator can let calls through again.
        Rejection rejection = current.rejection();
        Instant openUntil = rejection == null ? null : rejection.openUntil().orElse(null);
        return new CircuitBreakerSnapshot(breaker.name(), current.kind(), current.reason(), openUntil,
                countsOf(current, clock.nanoTime()), rejectedCalls);
    }
}
