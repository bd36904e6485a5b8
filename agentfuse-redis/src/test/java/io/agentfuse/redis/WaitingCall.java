package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitBreaker;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/** One call's permit as a breaker decides it: at once, or once the fleet has decided who probes. */
final class WaitingCall implements LongConsumer {

    private final AtomicLong permit = new AtomicLong(CircuitBreaker.PENDING);

    /** Asks {@code breaker} for a permit, waiting without a thread if the fleet decides it. */
    static WaitingCall on(CircuitBreaker breaker) {
        WaitingCall call = new WaitingCall();
        long permit = breaker.acquire(call);
        if (permit != CircuitBreaker.PENDING) {
            call.accept(permit);
        }
        return call;
    }

    @Override
    public void accept(long decided) {
        if (!permit.compareAndSet(CircuitBreaker.PENDING, decided)) {
            throw new AssertionError("a permit is decided once");
        }
    }

    boolean decided() {
        return permit.get() != CircuitBreaker.PENDING;
    }

    boolean permitted() {
        return decided() && permit.get() != CircuitBreaker.NOT_PERMITTED;
    }

    long permit() {
        return permit.get();
    }
}
