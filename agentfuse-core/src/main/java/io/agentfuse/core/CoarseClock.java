package io.agentfuse.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The system clock at a tick of about a millisecond; see {@link Clock#coarseSystem()}.
 *
 * <p>Why: one {@link System#nanoTime()} costs about 18 ns on a virtualised machine, and timing a
 * call takes two. Thresholds of seconds or minutes do not need that precision, so breakers read
 * this clock instead: two volatile reads. The wall clock is read at the same tick, for what only
 * needs to know which second it is (the gateway's per-second traffic, its meters' max windows).
 *
 * <p>One daemon thread per JVM keeps both fresh, started when the clock is first used. It wakes
 * once a millisecond while the clock is read, and parks after {@link #IDLE_TICKS} ticks in which
 * nothing read it, so an idle process is not woken a thousand times a second: the next reading
 * then refreshes the fields itself before it returns, and wakes the thread. Readings never go
 * backwards: every writer only raises {@code nanos}.
 *
 * <p>A thread that is awake anyway (a server's event loop between its reads) may refresh the
 * readings itself ({@link #refreshFromAwakeThread}); while such refreshes come at least once a
 * tick, the ticker sleeps {@value #HELPED_TICKS} ticks at a time instead of one (half of
 * {@link #tickNanos()}, the lag readers are promised), and takes over again within that when they
 * stop. Each of its wake-ups is a context switch, which on a small busy machine preempts a thread
 * with work: a gateway on two cores spent ~0.7 µs of CPU per small request on them.
 */
final class CoarseClock implements Clock {

    /** The refresh period; readings are at most about this much behind. */
    static final long TICK_NANOS = 1_000_000L;

    /** How many ticks the ticker sleeps while other threads refresh the readings. */
    static final int HELPED_TICKS = 5;

    /** Ticks in a row without a reading after which the ticker parks until the next one. */
    static final int IDLE_TICKS = 100;

    static final CoarseClock INSTANCE = startTicking();

    private static final VarHandle NANOS;

    static {
        try {
            NANOS = MethodHandles.lookup().findVarHandle(CoarseClock.class, "nanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LongSupplier systemNanos;
    private final LongSupplier systemMillis;
    private volatile Runnable wakeTicker = () -> { };

    private volatile long nanos;
    private volatile long millis;
    /** Whether the clock was read since the ticker last looked; set by readers, cleared by the ticker. */
    private volatile boolean read;
    /**
     * Refreshes by other threads since the ticker last looked. Incremented without a lock: a lost
     * increment undercounts, which only makes the ticker sleep less.
     */
    private volatile int helps;
    /** How many ticks the ticker slept last; the ticker's alone. */
    private int sleptTicks = 1;
    /** Whether the ticker is parked until a reading wakes it. */
    private volatile boolean asleep;
    /** Ticks since the ticker last looked at {@link #read}; the ticker's alone. */
    private int ticksUnlooked;

    /** A clock over {@code systemNanos} and {@code systemMillis} whose {@link #tick} someone else calls. */
    CoarseClock(LongSupplier systemNanos, LongSupplier systemMillis) {
        this.systemNanos = systemNanos;
        this.systemMillis = systemMillis;
        this.nanos = systemNanos.getAsLong();
        this.millis = systemMillis.getAsLong();
    }

    private static CoarseClock startTicking() {
        CoarseClock clock = new CoarseClock(System::nanoTime, System::currentTimeMillis);
        Thread ticker = new Thread(clock::tickForever, "agentfuse-coarse-clock");
        ticker.setDaemon(true);
        clock.wakeTicker(() -> LockSupport.unpark(ticker));
        ticker.start();
        return clock;
    }

    /** What a reading that finds the ticker parked runs to wake it. */
    void wakeTicker(Runnable wake) {
        this.wakeTicker = wake;
    }

    private void tickForever() {
        while (true) {
            LockSupport.parkNanos(nextSleepNanos());
            if (tick()) {
                LockSupport.park(this);
                wokenUp();
            }
        }
    }

    /**
     * How long the ticker sleeps before its next tick: {@value #HELPED_TICKS} ticks when other
     * threads refreshed the readings at least once a tick, on average, over its last sleep (sparser
     * refreshes would leave the readings staler than a tick), else one.
     */
    long nextSleepNanos() {
        int seen = helps;
        helps = 0;
        sleptTicks = seen >= sleptTicks ? HELPED_TICKS : 1;
        return sleptTicks * TICK_NANOS;
    }

    /**
     * Refreshes the readings from a thread that is awake anyway, about once a tick while it has
     * work (see the class comment); costs a read of the system clocks.
     */
    void refreshFromAwakeThread() {
        refresh();
        helps++;
    }

    /**
     * One tick of the ticker: refreshes the readings. Returns true when nothing read the clock
     * for {@link #IDLE_TICKS} ticks: the ticker is then {@linkplain #isAsleep asleep} and parks
     * until a reading wakes it, then calls {@link #wokenUp}.
     */
    boolean tick() {
        refresh();
        if (++ticksUnlooked < IDLE_TICKS) {
            return false;
        }
        ticksUnlooked = 0;
        if (read) {
            read = false;
            return false;
        }
        asleep = true;
        // A reader sets read, then looks at asleep; this thread sets asleep, then looks at read:
        // one of the two sees the other, so a reading in between is never left to a parked ticker.
        if (read) {
            asleep = false;
            return false;
        }
        return true;
    }

    /** The ticker resumes after a park: it ticks again from a fresh reading. */
    void wokenUp() {
        asleep = false;
        ticksUnlooked = 0;
        refresh();
    }

    /** Whether the ticker is parked until the next reading. */
    boolean isAsleep() {
        return asleep;
    }

    private void noteRead() {
        // Parked, the ticker left the fields as old as its sleep: refresh them before any other
        // reader can see read set and trust them.
        if (asleep) {
            refresh();
        }
        read = true;
        if (asleep) {
            refresh();
            wakeTicker.run();
        }
    }

    private void refresh() {
        long now = systemNanos.getAsLong();
        long seen = nanos;
        while (now > seen && !NANOS.compareAndSet(this, seen, now)) {
            seen = nanos;
        }
        millis = systemMillis.getAsLong();
    }

    @Override
    public long nanoTime() {
        if (!read) {
            noteRead();
        }
        return nanos;
    }

    @Override
    public long epochMillis() {
        if (!read) {
            noteRead();
        }
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
