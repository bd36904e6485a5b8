package io.agentfuse.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * A blocking call run on an executor as a future whose cancellation interrupts the thread that
 * runs it (a plain {@link CompletableFuture} would let it run on): how a hedged synchronous call
 * makes its attempts, so that a losing attempt or one past its limit stops as it would on the
 * caller's thread. Not part of the public API.
 */
public final class BlockingCall<T> extends CompletableFuture<T> implements Runnable {

    private final Supplier<? extends T> call;
    /** The thread running the call, guarded by {@code this}, so an interrupt never reaches a later task of it. */
    private Thread runner;

    private BlockingCall(Supplier<? extends T> call) {
        this.call = call;
    }

    /** Starts {@code call} on {@code executor}; the future fails if the executor refuses it. */
    public static <T> CompletableFuture<T> start(Supplier<? extends T> call, Executor executor) {
        BlockingCall<T> task = new BlockingCall<>(call);
        try {
            executor.execute(task);
        } catch (RejectedExecutionException refused) {
            task.completeExceptionally(refused);
        }
        return task;
    }

    @Override
    public void run() {
        synchronized (this) {
            if (isDone()) {
                return; // cancelled before it started
            }
            runner = Thread.currentThread();
        }
        try {
            complete(call.get());
        } catch (RuntimeException | Error failure) {
            completeExceptionally(failure);
        } finally {
            synchronized (this) {
                runner = null;
                Thread.interrupted(); // an interrupt meant for this call must not reach the pool's next task
            }
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            synchronized (this) {
                if (runner != null) {
                    runner.interrupt();
                }
            }
        }
        return cancelled;
    }

    /**
     * Waits for {@code future} on this thread and returns its value or throws its failure as it is
     * (an unchecked one unwrapped); an interrupt cancels it and leaves the flag set.
     */
    public static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException interrupted) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a hedged call", interrupted);
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new CompletionException(cause);
        }
    }
}
