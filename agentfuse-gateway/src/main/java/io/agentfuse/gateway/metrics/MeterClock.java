package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Clock;

/**
 * Micrometer's clock for the gateway's registry, over an agentfuse {@link Clock}: the wall time
 * from its coarse view, the monotonic time exact. Every timer and distribution summary reads the
 * wall time at each record, only to know whether its max window (minutes long) must rotate; on
 * the system clock that was a {@code clock_gettime} per record, four per small request, where the
 * coarse view is one volatile read at most a few milliseconds behind.
 *
 * <p>Thread-safe.
 */
final class MeterClock implements io.micrometer.core.instrument.Clock {

    private final Clock exact;
    private final Clock coarse;

    MeterClock(Clock clock) {
        this.exact = clock;
        this.coarse = clock.coarse();
    }

    @Override
    public long wallTime() {
        return coarse.epochMillis();
    }

    @Override
    public long monotonicTime() {
        return exact.nanoTime();
    }
}
