package io.agentfuse.core.breaker.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A window over the last {@code size} calls.
 *
 * <p>Once the window has held {@code minCalls} calls, successes only bump a striped counter, so
 * they neither contend nor allocate; before that, a success may be the call that completes
 * {@code minCalls}, so it is evaluated like a hit. A hit stores its call's sequence number in a
 * ring of the last {@code size} hits; the hits in the window are those whose sequence number lies
 * within the last {@code size} calls. Under concurrency the sequence numbers are approximate by at
 * most the number of racing threads, which is the same slack that any lock-free window has.
 */
public final class CountWindow extends OutcomeWindow {

    private final int size;
    private final LongAdder calls = new LongAdder();
    private final AtomicLong hitCursor = new AtomicLong();
    private final AtomicLongArray hitSequence;
    private volatile boolean heldMinCalls;

    /**
     * @param triggerName the trigger, for reasons and counts
     * @param size        the number of most recent calls in the window
     * @param minCalls    the calls needed before the trigger may fire
     * @param threshold   the hit share the window must exceed
     */
    public CountWindow(String triggerName, int size, int minCalls, double threshold) {
        super(triggerName, minCalls, threshold);
        this.size = size;
        this.hitSequence = new AtomicLongArray(size);
    }

    @Override
    public boolean record(boolean hit, long nowNanos) {
        calls.increment();
        if (!hit && heldMinCalls) {
            // A count window never shrinks, so from here on a success can only lower the share.
            return false;
        }
        long sequence = calls.sum();
        if (hit) {
            hitSequence.set((int) (hitCursor.getAndIncrement() % size), sequence);
        }
        long inWindow = Math.min(sequence, size);
        if (inWindow >= minCalls()) {
            heldMinCalls = true;
        }
        return exceeds(inWindow, hitsSince(sequence));
    }

    @Override
    long calls(long nowNanos) {
        return Math.min(calls.sum(), size);
    }

    @Override
    long hits(long nowNanos) {
        return hitsSince(calls.sum());
    }

    private long hitsSince(long latestSequence) {
        long oldest = latestSequence - size;
        long hits = 0;
        for (int i = 0; i < size; i++) {
            long sequence = hitSequence.get(i);
            if (sequence > oldest && sequence > 0) {
                hits++;
            }
        }
        return hits;
    }

    @Override
    public boolean needsTime() {
        return false;
    }
}
