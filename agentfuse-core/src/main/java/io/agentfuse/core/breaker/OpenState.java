package io.agentfuse.core.breaker;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Outcome;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * OPEN: calls are rejected at once until {@code openUntil}; then, unless the breaker is in
 * user-led mode, the first caller moves it to HALF_OPEN. A {@code Retry-After} reported while open
 * may extend the open time, never shorten it.
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
    private volatile long openUntilNanos;

    OpenState(CircuitBreaker breaker, String reason, int trip, long openUntilNanos) {
        super(breaker);
        this.reason = reason;
        this.trip = trip;
        this.openUntilNanos = openUntilNanos;
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
    boolean tryAcquire() {
        if (autoHalfOpen && clock.nanoTime() - openUntilNanos >= 0) {
            breaker.transition(this, new HalfOpenState(breaker, trip), "resetTimeout elapsed");
            return breaker.tryAcquirePermission();
        }
        breaker.rejected();
        return false;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
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
}
