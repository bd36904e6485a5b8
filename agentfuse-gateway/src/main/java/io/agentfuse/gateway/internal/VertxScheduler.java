package io.agentfuse.gateway.internal;

import io.agentfuse.core.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Scheduler} on Vert.x timers, so that the guards' retries and timeouts, and the provider
 * calls' own, fire on the context that scheduled them: a request's upstream attempts, waits and
 * answer then all run on the request's own event loop, with no thread hops and no locks in the
 * per-request state.
 *
 * <p>A delay is rounded up to whole milliseconds (Vert.x's timer resolution); a delay of zero or
 * less runs the task on the current context soon, not inline. Thread-safe.
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(config).scheduler(new VertxScheduler(vertx)).build();
 * }</pre>
 */
public final class VertxScheduler implements Scheduler {

    private final Vertx vertx;

    /** A scheduler on {@code vertx}'s timers. */
    public VertxScheduler(Vertx vertx) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
    }

    /** The event loop (context) of the caller, so that work another thread completes goes on there; elsewhere, as scheduled at once. */
    @Override
    public Executor resumeHere() {
        Context context = Vertx.currentContext();
        return context == null ? Scheduler.super.resumeHere() : task -> context.runOnContext(ignored -> task.run());
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        if (delayNanos <= 0) {
            vertx.getOrCreateContext().runOnContext(v -> task.run());
            return () -> { };
        }
        long timer = vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + 999_999)), id -> task.run());
        return () -> vertx.cancelTimer(timer);
    }
}
