package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HALF_OPEN: exactly {@code halfOpenRequests} probes pass. Enough successes close the breaker;
 * one failure opens it again, for longer if the config backs off. A probe that gives no answer
 * within {@code probeTimeout} is written off, so a lost probe cannot wedge the breaker.
 *
 * <p>Only answers to permits this state handed out count: the breaker hands an outcome to this
 * state only when it carries this state's stamp, so a late answer of a call admitted in CLOSED or
 * of a probe already written off can neither close the breaker nor raise the number of probes.
 * A probe slower than the breaker's slow-call threshold is a failed probe (docs/design.md §2: slower than
 * the threshold is a {@code TIMEOUT}), so a callee that answers too slowly is not declared healthy.
 */
final class HalfOpenState extends AbstractState {

    private final int trip;
    private final FleetLink gate;
    private final AtomicInteger permits;
    private final AtomicInteger successes = new AtomicInteger();
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile long lastPermitNanos;

    HalfOpenState(CircuitBreaker breaker, int trip) {
        super(breaker);
        this.trip = trip;
        this.gate = breaker.transitions().fleet();
        this.permits = new AtomicInteger(gate == null ? breaker.config().halfOpenRequests() : 0);
        this.lastPermitNanos = breaker.clock().nanoTime();
    }

    /**
     * Called once this state is the breaker's: in a fleet, asks for the fleet's probe lease, and
     * lets the probes through only when it is granted. Until then (or if another instance probes)
     * no call passes; the state is written off after {@code probeTimeout} like a lost probe, and
     * the fresh HALF_OPEN asks again, while the prober's result reaches this instance as a shared
     * close or trip.
     */
    void installed() {
        if (gate != null) {
            gate.requestProbe(breaker, this::probeGranted);
        }
    }

    private boolean probeGranted() {
        if (breaker.rawState() == this && permits.compareAndSet(0, breaker.config().halfOpenRequests())) {
            lastPermitNanos = breaker.clock().nanoTime();
            return true;
        }
        return false;
    }

    @Override
    CircuitState kind() {
        return CircuitState.HALF_OPEN;
    }

    @Override
    long tryAcquire() {
        while (true) {
            int available = permits.get();
            if (available > 0) {
                if (permits.compareAndSet(available, available - 1)) {
                    outstanding.incrementAndGet();
                    lastPermitNanos = breaker.clock().nanoTime();
                    return stamp;
                }
                continue;
            }
            if (probesExpired()) {
                breaker.transitions().writeOffProbes(this, new HalfOpenState(breaker, trip), outstanding.get() > 0);
                return breaker.acquire();
            }
            breaker.rejected();
            return CircuitBreaker.NOT_PERMITTED;
        }
    }

    private boolean probesExpired() {
        return breaker.clock().nanoTime() - lastPermitNanos >= breaker.config().probeTimeout().toNanos();
    }

    @Override
    void release() {
        if (claimOutstanding()) {
            permits.incrementAndGet();
        }
    }

    /** Takes one outstanding permit's answer; false when none is outstanding. */
    private boolean claimOutstanding() {
        while (true) {
            int current = outstanding.get();
            if (current <= 0) {
                return false;
            }
            if (outstanding.compareAndSet(current, current - 1)) {
                return true;
            }
        }
    }

    @Override
    void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
        if (!claimOutstanding()) {
            return;
        }
        if (outcome.isIgnoredByBreaker()) {
            permits.incrementAndGet();
        } else if (outcome.isFailure()) {
            breaker.transitions().trip(this, "half-open probe failed: " + outcome, retryAfterNanos);
        } else if (durationNanos > breaker.timing().slowCallNanos()) {
            breaker.transitions().trip(this, "half-open probe slower than " + Duration.ofNanos(breaker.timing().slowCallNanos()), retryAfterNanos);
        } else if (successes.incrementAndGet() >= breaker.config().successesToClose()) {
            breaker.transitions().transition(this, new ClosedState(breaker, breaker.clock().nanoTime()), "half-open probes succeeded");
        }
    }

    @Override
    int nextTrip() {
        return trip + 1;
    }

    @Override
    String reason() {
        return "probing after trip " + trip;
    }

    @Override
    void addCounts(BreakerCounts.Builder counts, long nowNanos) {
        counts.probes(Math.max(0, permits.get()), successes.get());
    }
}
