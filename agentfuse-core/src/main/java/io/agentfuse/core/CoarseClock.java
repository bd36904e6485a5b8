package io.agentfuse.core;

import java.util.concurrent.locks.LockSupport;

/**
 * The system clock at a tick of about a millisecond; see {@link Clock#coarseSystem()}.
 *
 * <p>Why: one {@link System#nanoTime()} costs about 18 ns on a virtualised machine, and timing a
 * call takes two. Thresholds of seconds or minutes do not need that precision, so breakers read
 * this clock instead: one volatile read. The wall clock is read at the same tick, for what only
 * needs to know which second it is (the gateway's per-second traffic, its meters' max windows).
 * One daemon thread per JVM keeps both fresh; it starts when the clock is first used and costs one
 * wake-up a millisecond.
 */
final class CoarseClock implements Clock {

    static final CoarseClock INSTANCE = new CoarseClock();

    /** The refresh period; readings are at most about this much behind. */
    static final long TICK_NANOS = 1_000_000L;

    private volatile long nanos = System.nanoTime();
    private volatile long millis = System.currentTimeMillis();

    private CoarseClock() {
        Thread ticker = new Thread(this::tick, "agentfuse-coarse-clock");
        ticker.setDaemon(true);
        ticker.start();
    }

    private void tick() {
        while (true) {
            LockSupport.parkNanos(TICK_NANOS);
            nanos = System.nanoTime();
            millis = System.currentTimeMillis();
        }
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public long epochMillis() {
        return millis;
    }

    @Override
    public Clock coarse() {
        return this;
    }

    @Override
    public long tickNanos() {
        // parkNanos may oversleep on a loaded machine; a threshold must be well above this to use the clock.
        return 10 * TICK_NANOS;
    }
}
