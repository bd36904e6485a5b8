package io.agentfuse.core.bulkhead;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * At most {@code maxConcurrent} calls in flight (the seed: 5 subagents), with an optional bounded
 * wait for a place.
 *
 * <p>{@link #tryAcquire()} is one CAS and allocates nothing; a rejection is the shared
 * {@link BulkheadFullException}. With {@code maxWait > 0}, {@link #acquireAsync()} waits in a FIFO
 * queue without holding a thread, and {@link #release()} hands the place straight to the oldest
 * waiter; a waiter whose wait ends (on the injected scheduler) fails with the rejection. Every
 * successful acquire must be paired with exactly one {@link #release()}; {@link io.agentfuse.core.Guard} does this
 * on every exit path, cancellation included.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * Bulkhead subagents = Bulkhead.of("subagents", 5, Duration.ZERO, Scheduler.shared());
 * }</pre>
 */
public final class Bulkhead {

    private final String name;
    private final int maxConcurrent;
    private final Duration maxWait;
    private final Scheduler scheduler;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ArrayDeque<CompletableFuture<Void>> waiters = new ArrayDeque<>();
    private final BulkheadFullException rejection;
    private final CompletionStage<Void> acquired = CompletableFuture.completedFuture(null);

    private Bulkhead(String name, int maxConcurrent, Duration maxWait, Scheduler scheduler) {
        Checks.notNull("name", name);
        Checks.atLeast("maxConcurrent", maxConcurrent, 1);
        Checks.notNegative("maxWait", maxWait);
        Checks.notNull("scheduler", scheduler);
        this.name = name;
        this.maxConcurrent = maxConcurrent;
        this.maxWait = maxWait;
        this.scheduler = scheduler;
        this.rejection = new BulkheadFullException(this);
    }

    /** A bulkhead that rejects at once when full. */
    public static Bulkhead of(String name, int maxConcurrent) {
        return new Bulkhead(name, maxConcurrent, Duration.ZERO, Scheduler.shared());
    }

    /** A bulkhead whose callers wait up to {@code maxWait}, timed on {@code scheduler}. */
    public static Bulkhead of(String name, int maxConcurrent, Duration maxWait, Scheduler scheduler) {
        return new Bulkhead(name, maxConcurrent, maxWait, scheduler);
    }

    /** Takes a place if one is free now; never waits. */
    public boolean tryAcquire() {
        while (true) {
            int current = inFlight.get();
            if (current >= maxConcurrent) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Takes a place, waiting up to {@code maxWait} on the calling thread; throws when full. */
    public void acquire() {
        if (tryAcquire()) {
            return;
        }
        if (maxWait.isZero()) {
            throw rejection;
        }
        CompletableFuture<Void> waiter = acquireAsync().toCompletableFuture();
        try {
            waiter.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Leave the queue; if release() handed us the place meanwhile, give it back.
            if (!waiter.cancel(false) && !waiter.isCompletedExceptionally()) {
                release();
            }
            throw rejection;
        } catch (ExecutionException e) {
            throw rejection;
        }
    }

    /** A stage that completes once a place is taken, or fails with the rejection after {@code maxWait}. */
    public CompletionStage<Void> acquireAsync() {
        if (tryAcquire()) {
            return acquired;
        }
        if (maxWait.isZero()) {
            return CompletableFuture.failedFuture(rejection);
        }
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        synchronized (waiters) {
            // Re-check under the lock: release() decrements under the same lock when nobody waits.
            if (tryAcquire()) {
                return acquired;
            }
            waiters.addLast(waiter);
        }
        Scheduler.Cancellable timer = scheduler.schedule(() -> {
            synchronized (waiters) {
                waiters.remove(waiter);
            }
            waiter.completeExceptionally(rejection);
        }, maxWait.toNanos());
        waiter.whenComplete((ignored, error) -> timer.cancel());
        return waiter;
    }

    /**
     * Frees a place: hands it to the oldest waiter, if any, else returns it.
     *
     * @throws IllegalStateException if no place is taken: an unpaired release would silently
     *                               raise the limit
     */
    public void release() {
        if (maxWait.isZero()) {
            returnPlace(); // nobody ever waits: no queue to look at, no lock
            return;
        }
        while (true) {
            CompletableFuture<Void> next;
            synchronized (waiters) {
                next = waiters.pollFirst();
                if (next == null) {
                    returnPlace();
                    return;
                }
            }
            if (next.complete(null)) {
                return;
            }
        }
    }

    private void returnPlace() {
        if (inFlight.getAndDecrement() <= 0) {
            inFlight.incrementAndGet();
            throw new IllegalStateException("bulkhead '" + name + "' released more places than were taken");
        }
    }

    /** The rejection this bulkhead throws. */
    public BulkheadFullException rejection() {
        return rejection;
    }

    /** Calls in flight now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The bulkhead's name. */
    public String name() {
        return name;
    }

    /** The most calls in flight at once. */
    public int maxConcurrent() {
        return maxConcurrent;
    }

    /** How long a caller may wait for a place. */
    public Duration maxWait() {
        return maxWait;
    }
}
