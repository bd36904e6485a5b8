package io.agentfuse.core;


import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock and scheduler that only move when told to: the way agentfuse tests (and yours) drive
 * time without sleeping.
 *
 * <p>{@link #advance(Duration)} moves time forward and runs, on the calling thread and in due
 * order, every scheduled task whose time has come, including tasks that those tasks schedule
 * within the advanced span. Thread-safe: any thread may read the time or schedule tasks while
 * another advances it.
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * CircuitBreaker breaker = CircuitBreaker.of("tool", config, clock);
 * clock.advance(Duration.ofMinutes(5));
 * }</pre>
 */
public final class ManualClock implements Clock, Scheduler {

    /** An arbitrary, fixed wall-clock origin so that reports are reproducible: 2026-01-01T00:00Z. */
    public static final long DEFAULT_EPOCH_MILLIS = 1_767_225_600_000L;

    private final Object lock = new Object();
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private final long originEpochMillis;
    private volatile long nanos;

    /** A clock at {@link #DEFAULT_EPOCH_MILLIS}. */
    public ManualClock() {
        this(DEFAULT_EPOCH_MILLIS);
    }

    /** A clock whose wall time starts at {@code originEpochMillis}. */
    public ManualClock(long originEpochMillis) {
        this.originEpochMillis = originEpochMillis;
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public long epochMillis() {
        return originEpochMillis + nanos / 1_000_000L;
    }

    /** Moves time forward by {@code duration}, running every task that falls due. */
    public void advance(Duration duration) {
        advanceNanos(duration.toNanos());
    }

    /** Moves time forward by {@code millis} milliseconds, running every task that falls due. */
    public void advanceMillis(long millis) {
        advanceNanos(millis * 1_000_000L);
    }

    /** Moves time forward by {@code delta} nanoseconds, running every task that falls due. */
    public void advanceNanos(long delta) {
        if (delta < 0) {
            throw new IllegalArgumentException("time only moves forward, but delta was " + delta);
        }
        long target;
        synchronized (lock) {
            target = nanos + delta;
        }
        while (true) {
            Task due;
            synchronized (lock) {
                due = tasks.peek();
                if (due == null || due.dueNanos > target) {
                    nanos = Math.max(nanos, target);
                    return;
                }
                tasks.poll();
                nanos = Math.max(nanos, due.dueNanos);
            }
            if (!due.cancelled) {
                due.task.run();
            }
        }
    }

    /** A {@link Sleeper} on this clock: "sleeping" advances time and runs what falls due. */
    public void sleep(long nanos) {
        advanceNanos(Math.max(0, nanos));
    }

    /** Runs the tasks already due without moving time. */
    public void runDueTasks() {
        advanceNanos(0);
    }

    /** How many scheduled tasks have neither run nor been cancelled. */
    public int pendingTasks() {
        synchronized (lock) {
            return (int) tasks.stream().filter(task -> !task.cancelled).count();
        }
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        Task scheduled;
        synchronized (lock) {
            scheduled = new Task(nanos + Math.max(0, delayNanos), sequence.getAndIncrement(), task);
            tasks.add(scheduled);
        }
        return () -> scheduled.cancelled = true;
    }

    private static final class Task implements Comparable<Task> {
        final long dueNanos;
        final long order;
        final Runnable task;
        volatile boolean cancelled;

        Task(long dueNanos, long order, Runnable task) {
            this.dueNanos = dueNanos;
            this.order = order;
            this.task = task;
        }

        @Override
        public int compareTo(Task other) {
            int byTime = Long.compare(dueNanos, other.dueNanos);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
