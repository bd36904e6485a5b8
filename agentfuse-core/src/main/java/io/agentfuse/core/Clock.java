package io.agentfuse.core;


/**
 * The source of time for every agentfuse component.
 *
 * <p>Every guard takes its clock as a constructor argument, so that tests can drive a
 * {@link ManualClock} and never sleep. {@link #nanoTime()} measures durations and deadlines;
 * {@link #epochMillis()} is only used to report wall-clock instants (for example
 * {@code openUntil} in the admin API).
 *
 * <p>Implementations must be thread-safe and cheap: {@link #nanoTime()} is read on hot paths.
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.of("search", config, Clock.system());
 * }</pre>
 */
public interface Clock {

    /** A monotonic reading in nanoseconds, comparable only with other readings of this clock. */
    long nanoTime();

    /** The wall-clock time in milliseconds since the Unix epoch. */
    long epochMillis();

    /** The wall-clock instant that corresponds to the monotonic reading {@code nanos}. */
    default long epochMillisAt(long nanos) {
        return epochMillis() + Math.floorDiv(nanos - nanoTime(), 1_000_000L);
    }

    /**
     * A view of this clock for measuring durations that only matter far above a millisecond (a
     * 60 s slow-call threshold, a 5 min open time): as cheap to read as possible, at most
     * {@link #tickNanos()} behind. This clock itself by default; the system clock answers with
     * {@link #coarseSystem()}. A {@link ManualClock} is exact and returns itself.
     */
    default Clock coarse() {
        return this;
    }

    /**
     * The clock to time durations of {@code shortestNanos} and longer with: {@link #coarse()} when
     * that is at least 100 of its ticks (so a reading is off by 1 % of it at most), else this clock.
     */
    default Clock fineEnoughFor(long shortestNanos) {
        Clock coarse = coarse();
        return shortestNanos >= 100 * coarse.tickNanos() ? coarse : this;
    }

    /** How far behind the true time a reading may be: 0 for an exact clock. */
    default long tickNanos() {
        return 0L;
    }

    /** The system clock: {@link System#nanoTime()} and {@link System#currentTimeMillis()}. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /**
     * The system clock read coarsely: {@link #nanoTime()} is one volatile read of a value that a
     * single daemon thread per JVM refreshes about every millisecond, started on first use.
     */
    static Clock coarseSystem() {
        return CoarseClock.INSTANCE;
    }

    /**
     * Refreshes {@link #coarseSystem()} from a thread that is awake anyway, such as a server's event
     * loop about once a millisecond while it serves: while such refreshes come, the coarse clock's
     * own thread wakes a fifth as often. Readings stay about a millisecond behind while they come,
     * and its thread takes over within five when they stop (half its {@link #tickNanos()}).
     */
    static void refreshCoarseSystem() {
        CoarseClock.INSTANCE.refreshFromAwakeThread();
    }
}
