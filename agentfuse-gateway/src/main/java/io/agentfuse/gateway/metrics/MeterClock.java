package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Clock;

/**
 * Micrometer's clock for the gateway's registry, over the agentfuse {@link Clock} the metrics were
 * made with, so that a test's {@code ManualClock} moves the meters' max windows too.
 *
 * <p>Thread-safe.
 */
final class MeterClock implements io.micrometer.core.instrument.Clock {

    private final Clock clock;

    MeterClock(Clock clock) {
        this.clock = clock;
    }

    @Override
    public long wallTime() {
        return clock.epochMillis();
    }

    @Override
    public long monotonicTime() {
        return clock.nanoTime();
    }
}
