package io.agentfuse.core.breaker.internal;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A count of events over the last {@code span} of time, in ten buckets: adding is one striped
 * add (plus a short lock once per bucket width to clear a stale bucket), reading sums the live
 * buckets. The buckets are {@link LongAdder}s because every call of a retry budget adds to one:
 * a plain atomic counter written by every event loop on every request moves its cache line from
 * core to core each time. Allocation-free once the adders have grown their cells.
 *
 * <p>Internal: used by the retry budget, not a public API.
 */
public final class SlidingCounter {

    private static final int BUCKETS = 10;

    private final long bucketNanos;
    private final AtomicLongArray epochs = new AtomicLongArray(BUCKETS);
    private final LongAdder[] counts = new LongAdder[BUCKETS];

    /** @param spanNanos the time span counted */
    public SlidingCounter(long spanNanos) {
        this.bucketNanos = Math.max(1, spanNanos / BUCKETS);
        for (int i = 0; i < BUCKETS; i++) {
            epochs.set(i, Long.MIN_VALUE);
            counts[i] = new LongAdder();
        }
    }

    /** Counts one event at {@code nowNanos}. */
    public void add(long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, bucketNanos);
        int slot = (int) Math.floorMod(epoch, (long) BUCKETS);
        if (epochs.get(slot) != epoch) {
            rollOver(slot, epoch);
        }
        counts[slot].increment();
    }

    private synchronized void rollOver(int slot, long epoch) {
        if (epochs.get(slot) < epoch) {
            counts[slot].reset();
            epochs.set(slot, epoch);
        }
    }

    /** Events within the span ending at {@code nowNanos}. */
    public long sum(long nowNanos) {
        long current = Math.floorDiv(nowNanos, bucketNanos);
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            long epoch = epochs.get(i);
            if (epoch > current - BUCKETS && epoch <= current) {
                total += counts[i].sum();
            }
        }
        return total;
    }
}
