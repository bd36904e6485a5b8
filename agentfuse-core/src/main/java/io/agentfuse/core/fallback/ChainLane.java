package io.agentfuse.core.fallback;

import io.agentfuse.core.Deadline;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * One step of an asynchronous chain run in flight: which step, whether it was started as a hedge,
 * its observer, and the future of its guarded call, which is cancelled when it loses a race or the
 * run is given up on ({@link #abandoned} then tells its end apart).
 */
final class ChainLane<I, T> {

    final int index;
    final ChainStep<I, T> step;
    final boolean isHedge;
    final ChainStep<I, T>.LastAttempt last;
    private volatile CompletableFuture<T> future;
    private volatile boolean abandoned;

    /** Step {@code index} on {@code input}; {@code onFirstContent} (or {@code null}) hears when its first content arrives. */
    ChainLane(int index, ChainStep<I, T> step, I input, boolean isHedge, Consumer<ChainLane<I, T>> onFirstContent) {
        this.index = index;
        this.step = step;
        this.isHedge = isHedge;
        this.last = onFirstContent == null ? step.observe(input) : step.observe(input, () -> onFirstContent.accept(this));
    }

    /** Calls the step; {@code ended} gets its end, unless the run was given up on first ({@code cancelled}). */
    void launch(I input, Deadline deadline, Executor syncOn, boolean cancelled, Ended<I, T> ended) {
        CompletableFuture<T> started = step.executeAsync(input, deadline, last, syncOn);
        future = started;
        if (cancelled || abandoned) {
            started.cancel(true); // given up on before the future was known to whoever gave up
        }
        started.whenComplete((value, error) -> ended.ended(this, value, error));
    }

    /** Gives up on the step: its call is cancelled and its end will be ignored. */
    void cancel() {
        abandoned = true;
        CompletableFuture<T> started = future;
        if (started != null) {
            started.cancel(true);
        }
    }

    /** Whether it was given up on. */
    boolean abandoned() {
        return abandoned;
    }

    /** Where a lane's end goes. */
    @FunctionalInterface
    interface Ended<I, T> {
        void ended(ChainLane<I, T> lane, T value, Throwable error);
    }
}
