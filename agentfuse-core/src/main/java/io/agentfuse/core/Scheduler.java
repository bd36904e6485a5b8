package io.agentfuse.core;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay, without blocking the caller: retries wait through it, timeouts
 * fire through it, and asynchronous guards never park a thread.
 *
 * <p>Pair it with the {@link Clock} it measures against: {@link ManualClock} is both, so a test
 * advances time and the due tasks run on the test's thread.
 *
 * <pre>{@code
 * Scheduler scheduler = Scheduler.of(Executors.newSingleThreadScheduledExecutor());
 * Cancellable task = scheduler.schedule(() -> System.out.println("later"), 2_000_000_000L);
 * }</pre>
 */
public interface Scheduler {

    /**
     * Runs {@code task} once, {@code delayNanos} from now (at once when not positive).
     *
     * @return a handle that cancels the task if it has not run yet
     */
    Cancellable schedule(Runnable task, long delayNanos);

    /**
     * Where work that another thread completes later (the fleet's answer about a half-open probe)
     * goes on: called on the thread that waits, it answers an executor for its continuation. By
     * default a task scheduled at once; a scheduler on event loops answers the loop that asked, so
     * that a request's work stays on its loop.
     */
    default Executor resumeHere() {
        return task -> schedule(task, 0L);
    }

    /** A scheduler backed by a {@link ScheduledExecutorService} that the caller owns. */
    static Scheduler of(ScheduledExecutorService executor) {
        return (task, delayNanos) -> {
            var future = executor.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        };
    }

    /**
     * A process-wide scheduler on one daemon thread. Tasks must be short: hand real work to an
     * executor of your own.
     */
    static Scheduler shared() {
        return SharedScheduler.INSTANCE;
    }

    /** A scheduled task that may still be cancelled. */
    @FunctionalInterface
    interface Cancellable {
        /** Cancels the task if it has not started; does nothing otherwise. */
        void cancel();
    }

    /** Holder for the lazily started shared scheduler thread. */
    final class SharedScheduler {
        static final Scheduler INSTANCE = of(Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "agentfuse-scheduler");
            thread.setDaemon(true);
            return thread;
        }));

        private SharedScheduler() {
        }
    }
}
