package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongConsumer;

/**
 * OPEN: calls are rejected at once until {@code openUntil}; then, unless the breaker is in
 * user-led mode, the first caller (or the first reader of the state) moves it to HALF_OPEN. A
 * {@code Retry-After} reported while open may extend the open time, never shorten it. The counts
 * that tripped the breaker stay visible while it is open.
 */
final class OpenState extends AbstractState {

    private static final VarHandle OPEN_UNTIL;

    static {
        try {
            OPEN_UNTIL = MethodHandles.lookup().findVarHandle(OpenState.class, "openUntilNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String reason;
    private final int trip;
    private final Rejection rejection;
    private final boolean autoHalfOpen;
    private final Clock clock;
    private final BreakerCounts countsAtTrip;
    private volatile long openUntilNanos;

    OpenState(CircuitBreaker breaker, String reason, int trip, long openUntilNanos, BreakerCounts countsAtTrip) {
        super(breaker);
        this.reason = reason;
        this.trip = trip;
        this.openUntilNanos = openUntilNanos;
        this.countsAtTrip = countsAtTrip;
        this.rejection = new Rejection(breaker, this);
        // Held here so that a rejection, the hot path of an open breaker, reads no more than it must.
        this.autoHalfOpen = breaker.config().autoHalfOpen();
        this.clock = breaker.clock();
    }

    @Override
    CircuitState kind() {
        return CircuitState.OPEN;
    }

    @Override
    long tryAcquire() {
        return tryAcquire(null);
    }

    @Override
    long tryAcquire(LongConsumer waiter) {
        if (autoHalfOpen && clock.nanoTime() - openUntilNanos >= 0) {
            breaker.transitions().transition(this, new HalfOpenState(breaker, trip), "resetTimeout elapsed");
            return breaker.rawState().tryAcquire(waiter); // the first call after the open time may be the probe
        }
        breaker.rejected();
        return CircuitBreaker.NOT_PERMITTED;
    }

    @Override
    AbstractState current() {
        if (autoHalfOpen && breaker.clock().nanoTime() - openUntilNanos >= 0) {
            breaker.transitions().transition(this, new HalfOpenState(breaker, trip), "resetTimeout elapsed");
            return breaker.rawState();
        }
        return this;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
        recordLate(retryAfterNanos);
    }

    @Override
    void recordLate(long retryAfterNanos) {
        if (retryAfterNanos > 0) {
            extendUntil(breaker.clock().nanoTime() + retryAfterNanos);
        }
    }

    /** Moves the end of the open time to {@code untilNanos} if that is later. */
    void extendUntil(long untilNanos) {
        long current;
        do {
            current = openUntilNanos;
            if (untilNanos - current <= 0) {
                return;
            }
        } while (!OPEN_UNTIL.compareAndSet(this, current, untilNanos));
    }

    int trip() {
        return trip;
    }

    @Override
    String reason() {
        return reason;
    }

    @Override
    long openUntilNanos() {
        return openUntilNanos;
    }

    @Override
    Rejection rejection() {
        return rejection;
    }

    @Override
    void addCounts(BreakerCounts.Builder counts, long nowNanos) {
        countsAtTrip.streaks().forEach(streak -> counts.streak(streak.trigger(), streak.inARow()));
        countsAtTrip.windows().forEach(window -> counts.window(window.trigger(), window.calls(), window.hits()));
        if (countsAtTrip.probes() != null) {
            counts.probes(countsAtTrip.probes().permitsLeft(), countsAtTrip.probes().successes());
        }
    }
}
