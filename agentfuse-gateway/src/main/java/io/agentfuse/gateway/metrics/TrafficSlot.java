package io.agentfuse.gateway.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One slot of the {@link RecentTraffic} ring: the counters of the second it holds. Recording is
 * lock-free and allocation-free once warm (striped adders, for the latency buckets too: every
 * request of every event loop adds to one, and a plain atomic counter would move its cache line
 * between cores each time); the first writer of a new second clears the slot while the others
 * wait for the few stores that takes.
 * Thread-safe.
 */
final class TrafficSlot {

    private static final long EMPTY = -1;
    private static final long CLEARING = -2;

    /** The epoch second counted here, {@link #EMPTY}, or {@link #CLEARING} while being cleared. */
    private final AtomicLong second = new AtomicLong(EMPTY);
    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder upstreamFailures = new LongAdder();
    private final LongAdder fallbacks = new LongAdder();
    private final LongAdder[] latency = new LongAdder[LatencyBuckets.COUNT];
    private final AtomicLong maxNanos = new AtomicLong();

    TrafficSlot() {
        for (int i = 0; i < latency.length; i++) {
            latency[i] = new LongAdder();
        }
    }

    /**
     * Makes this slot count {@code epochSecond}, clearing an older second; false when it already
     * counts a newer one (the caller is late by a whole ring and drops its sample).
     */
    boolean claim(long epochSecond) {
        while (true) {
            long held = second.get();
            if (held == epochSecond) {
                return true;
            }
            if (held == CLEARING) {
                Thread.onSpinWait();
            } else if (held > epochSecond) {
                return false;
            } else if (second.compareAndSet(held, CLEARING)) {
                clear();
                second.set(epochSecond);
                return true;
            }
        }
    }

    private void clear() {
        requests.reset();
        errors.reset();
        upstreamFailures.reset();
        fallbacks.reset();
        for (LongAdder bucket : latency) {
            bucket.reset();
        }
        maxNanos.set(0);
    }

    /** Counts one request of the claimed second. */
    void record(boolean error, long durationNanos) {
        requests.increment();
        if (error) {
            errors.increment();
        }
        latency[LatencyBuckets.index(durationNanos)].increment();
        long max = maxNanos.get();
        while (durationNanos > max && !maxNanos.compareAndSet(max, durationNanos)) {
            max = maxNanos.get();
        }
    }

    /** Counts one failed call to a provider in the claimed second. */
    void upstreamFailure() {
        upstreamFailures.increment();
    }

    /** Counts one fallback step passed over in the claimed second. */
    void fallback() {
        fallbacks.increment();
    }

    /** What this slot counted for {@code epochSecond}, or an empty second if it holds another. */
    TrafficSecond read(long epochSecond) {
        if (second.get() != epochSecond) {
            return TrafficSecond.empty(epochSecond);
        }
        long[] counts = new long[LatencyBuckets.COUNT];
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = latency[i].sum();
            total += counts[i];
        }
        long maxMicros = Math.max(1, maxNanos.get() / 1_000L);
        TrafficSecond read = new TrafficSecond(epochSecond, requests.sum(), errors.sum(),
                millis(LatencyBuckets.quantileMicros(counts, total, 0.50, maxMicros)),
                millis(LatencyBuckets.quantileMicros(counts, total, 0.95, maxMicros)),
                total == 0 ? 0 : maxNanos.get() / 1e6, upstreamFailures.sum(), fallbacks.sum());
        // A writer of a much later second may have cleared the slot while it was read.
        return second.get() == epochSecond ? read : TrafficSecond.empty(epochSecond);
    }

    private static double millis(long micros) {
        return micros / 1_000.0;
    }
}
