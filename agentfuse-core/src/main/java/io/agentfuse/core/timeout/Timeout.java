package io.agentfuse.core.timeout;

import io.agentfuse.core.Scheduler;
import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Gives up on a call that takes longer than {@code duration}: a {@link CallTimeoutException},
 * classified as {@link io.agentfuse.core.Outcome#TIMEOUT}.
 *
 * <p>Asynchronous calls ({@link #within(CompletionStage)}) fail when the timer fires, on the
 * injected {@link Scheduler}, and the late stage is cancelled (return a {@link CompletableFuture}
 * that aborts its work on cancellation to free the resource). Synchronous calls
 * ({@link #call(Supplier)}) run on the caller's thread, which the timer interrupts; a call that
 * ignores interruption is still reported as a timeout when it returns, and its result dropped.
 * The caller's interrupt flag is left as it was.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * Timeout timeout = Timeout.of(Duration.ofSeconds(30), Scheduler.shared());
 * CompletionStage<String> answer = timeout.within(client.sendAsync(request));
 * }</pre>
 */
public final class Timeout {

    private static final int RUNNING = 0;
    private static final int FINISHED = 1;
    private static final int FIRING = 2;
    private static final int FIRED = 3;

    private final Duration duration;
    private final long nanos;
    private final Scheduler scheduler;

    private Timeout(Duration duration, Scheduler scheduler) {
        Checks.positive("timeout", duration);
        Checks.notNull("scheduler", scheduler);
        this.duration = duration;
        this.nanos = duration.toNanos();
        this.scheduler = scheduler;
    }

    /** A timeout of {@code duration}, timed on {@code scheduler}. */
    public static Timeout of(Duration duration, Scheduler scheduler) {
        return new Timeout(duration, scheduler);
    }

    /** The limit. */
    public Duration duration() {
        return duration;
    }

    /**
     * A stage that completes like {@code stage}, or fails with {@link CallTimeoutException} first.
     * Cancelling it cancels {@code stage} and the timer.
     */
    public <T> CompletableFuture<T> within(CompletionStage<T> stage) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Scheduler.Cancellable timer = start(() -> {
            if (result.completeExceptionally(new CallTimeoutException(duration))) {
                stage.toCompletableFuture().cancel(true);
            }
        });
        stage.whenComplete((value, error) -> {
            timer.cancel();
            if (error == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(error);
            }
        });
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                // The limited stage stands for the call: cancelling it must reach the work it limits.
                timer.cancel();
                stage.toCompletableFuture().cancel(true);
            }
        });
        return result;
    }

    /**
     * Arms this limit for a call that its caller ends itself: {@code onTimeout} runs on the
     * scheduler once the limit has passed, unless the returned handle was cancelled first. For a
     * caller that already follows its call's completion and would otherwise wrap it in
     * {@link #within} only to learn of the timeout.
     */
    public Scheduler.Cancellable start(Runnable onTimeout) {
        return scheduler.schedule(onTimeout, nanos);
    }

    /** Runs {@code call} on this thread, interrupting it if it outlives the timeout. */
    public <T> T call(Supplier<T> call) {
        return callWithin(call, nanos, scheduler, duration);
    }

    /**
     * Runs {@code call} on this thread within this timeout cut to {@code limitNanos} (the time left
     * before a request's deadline): past the timeout it fails with {@link CallTimeoutException},
     * past a shorter {@code limitNanos} with {@link DeadlineExceededException}.
     */
    public <T> T call(Supplier<T> call, long limitNanos) {
        return limitNanos < nanos ? callWithin(call, Math.max(0L, limitNanos), scheduler, null) : call(call);
    }

    /**
     * Runs {@code call} on this thread, interrupting it if it outlives {@code limitNanos} timed on
     * {@code scheduler}; a call that outlives it fails with {@link CallTimeoutException} of
     * {@code timeout}, or, when {@code timeout} is {@code null} (the limit is a deadline's), with
     * {@link DeadlineExceededException}. For a guard whose attempts have no timeout of their own
     * but a deadline to keep.
     */
    public static <T> T callWithin(Supplier<T> call, long limitNanos, Scheduler scheduler, Duration timeout) {
        Thread caller = Thread.currentThread();
        boolean callerInterrupted = caller.isInterrupted();
        AtomicInteger state = new AtomicInteger(RUNNING);
        Scheduler.Cancellable timer = scheduler.schedule(() -> {
            if (state.compareAndSet(RUNNING, FIRING)) {
                caller.interrupt();
                state.set(FIRED);
            }
        }, limitNanos);
        T result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            throwIfTimedOut(state, callerInterrupted, limitNanos, timeout);
            throw e;
        } finally {
            timer.cancel();
        }
        throwIfTimedOut(state, callerInterrupted, limitNanos, timeout);
        return result;
    }

    private static void throwIfTimedOut(AtomicInteger state, boolean callerInterrupted, long limitNanos,
                                        Duration timeout) {
        if (state.compareAndSet(RUNNING, FINISHED)) {
            return;
        }
        while (state.get() == FIRING) {
            Thread.onSpinWait();
        }
        Thread.interrupted(); // the interrupt was ours, not the caller's
        if (callerInterrupted) {
            Thread.currentThread().interrupt(); // but the caller's own interrupt must survive
        }
        throw timeout != null ? new CallTimeoutException(timeout) : DeadlineExceededException.cut(Duration.ofNanos(limitNanos));
    }

    /**
     * Arms this limit, cut to {@code limitNanos}, for a call that its caller ends itself (as
     * {@link #start(Runnable)}).
     */
    public Scheduler.Cancellable start(Runnable onTimeout, long limitNanos) {
        return scheduler.schedule(onTimeout, Math.min(nanos, Math.max(0L, limitNanos)));
    }

    /** The limit in nanoseconds. */
    public long nanos() {
        return nanos;
    }
}
