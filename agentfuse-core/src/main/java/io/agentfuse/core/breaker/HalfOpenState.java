package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

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
 *
 * <p>In a fleet the permits are the {@link FleetProbe}'s: they exist only on the instance that
 * holds the fleet's probe lease, which is asked for by the first call that finds this state.
 */
final class HalfOpenState extends AbstractState {

    private final int trip;
    private final FleetProbe fleet;
    private final AtomicInteger permits;
    private final AtomicInteger successes = new AtomicInteger();
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile long lastPermitNanos;

    HalfOpenState(CircuitBreaker breaker, int trip) {
        super(breaker);
        this.trip = trip;
        FleetLink link = breaker.transitions().fleet();
        this.fleet = link == null ? null : new FleetProbe(this, breaker, link);
        this.permits = new AtomicInteger(link == null ? breaker.config().halfOpenRequests() : 0);
        this.lastPermitNanos = breaker.clock().nanoTime();
    }

    @Override
    CircuitState kind() {
        return CircuitState.HALF_OPEN;
    }

    @Override
    long tryAcquire() {
        return tryAcquire(null);
    }

    @Override
    long tryAcquire(LongConsumer waiter) {
        long permit = fleet != null ? fleet.admit(waiter) : takeLocal();
        if (permit != CircuitBreaker.NOT_PERMITTED) {
            return permit;
        }
        if (probesExpired()) {
            breaker.transitions().writeOffProbes(this, new HalfOpenState(breaker, trip));
            return breaker.rawState().tryAcquire(waiter);
        }
        breaker.rejected();
        return CircuitBreaker.NOT_PERMITTED;
    }

    private long takeLocal() {
        while (true) {
            int available = permits.get();
            if (available <= 0) {
                return CircuitBreaker.NOT_PERMITTED;
            }
            if (permits.compareAndSet(available, available - 1)) {
                handed(1);
                return stamp;
            }
        }
    }

    /** {@code count} permits were handed out: they are outstanding, and the probe timeout starts again. */
    void handed(int count) {
        if (count > 0) {
            outstanding.addAndGet(count);
            lastPermitNanos = breaker.clock().nanoTime();
        }
    }

    /** Whether this is still the breaker's state. */
    boolean isCurrent() {
        return breaker.rawState() == this;
    }

    /** Whether probes are out and none was handed out for a probe timeout: a lost probe, written off. */
    private boolean probesExpired() {
        return outstanding.get() > 0
                && breaker.clock().nanoTime() - lastPermitNanos >= breaker.config().probeTimeout().toNanos();
    }

    @Override
    void release() {
        if (claimOutstanding()) {
            permitBack();
        }
    }

    private void permitBack() {
        if (fleet != null) {
            fleet.permitReturned(outstanding.get());
        } else {
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
            permitBack();
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
        return fleet != null ? fleet.reason(trip) : "probing after trip " + trip;
    }

    @Override
    long refusedForNanos() {
        return fleet != null ? fleet.refusedForNanos() : 0L;
    }

    @Override
    void addCounts(BreakerCounts.Builder counts, long nowNanos) {
        counts.probes(fleet != null ? fleet.spare() : Math.max(0, permits.get()), successes.get());
    }
}
