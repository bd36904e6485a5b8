package io.agentfuse.core.breaker.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A window over the calls of the last {@code span}, kept in {@value #BUCKETS} buckets of
 * {@code span / BUCKETS} each, so the window slides in steps of a twentieth of its span.
 *
 * <p>Recording is two atomic adds; a bucket that has fallen out of the window is cleared by the
 * first call that lands in it again, under a lock taken only then (once per bucket width).
 */
public final class TimeWindow extends OutcomeWindow {

    static final int BUCKETS = 20;

    private final long bucketNanos;
    private final AtomicLongArray epochs = new AtomicLongArray(BUCKETS);
    private final AtomicLongArray calls = new AtomicLongArray(BUCKETS);
    private final AtomicLongArray hits = new AtomicLongArray(BUCKETS);

    /**
     * @param triggerName the trigger, for reasons and counts
     * @param spanNanos   the time span of the window
     * @param minCalls    the calls needed before the trigger may fire
     * @param threshold   the hit share the window must exceed
     * @param nowNanos    the clock reading when the window starts
     */
    public TimeWindow(String triggerName, long spanNanos, int minCalls, double threshold, long nowNanos) {
        super(triggerName, minCalls, threshold);
        this.bucketNanos = Math.max(1, spanNanos / BUCKETS);
        long epoch = epochOf(nowNanos);
        for (int i = 0; i < BUCKETS; i++) {
            epochs.set(i, Long.MIN_VALUE);
        }
        epochs.set(slot(epoch), epoch);
    }

    @Override
    public boolean record(boolean hit, long nowNanos) {
        long epoch = epochOf(nowNanos);
        int slot = slot(epoch);
        if (epochs.get(slot) != epoch) {
            rollOver(slot, epoch);
        }
        long inBucket = calls.incrementAndGet(slot);
        if (!hit) {
            // A success opens only by completing minCalls, or as the first call after old
            // buckets slid out; either way this bucket then holds at most minCalls calls.
            return inBucket <= minCalls() && exceeds(calls(nowNanos), hits(nowNanos));
        }
        hits.incrementAndGet(slot);
        return exceeds(calls(nowNanos), hits(nowNanos));
    }

    private synchronized void rollOver(int slot, long epoch) {
        if (epochs.get(slot) < epoch) {
            calls.set(slot, 0);
            hits.set(slot, 0);
            epochs.set(slot, epoch);
        }
    }

    @Override
    long calls(long nowNanos) {
        return sum(calls, epochOf(nowNanos));
    }

    @Override
    long hits(long nowNanos) {
        return sum(hits, epochOf(nowNanos));
    }

    private long sum(AtomicLongArray counters, long currentEpoch) {
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            long epoch = epochs.get(i);
            if (epoch > currentEpoch - BUCKETS && epoch <= currentEpoch) {
                total += counters.get(i);
            }
        }
        return total;
    }

    private long epochOf(long nowNanos) {
        return Math.floorDiv(nowNanos, bucketNanos);
    }

    private static int slot(long epoch) {
        return (int) Math.floorMod(epoch, (long) BUCKETS);
    }

    @Override
    public boolean needsTime() {
        return true;
    }
}
