package io.agentfuse.gateway.internal;

import io.agentfuse.core.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A {@link Scheduler} on Vert.x timers, so that the guards' retries and timeouts fire on the
 * event loop that scheduled them. A request's upstream attempts, waits and answer then all run
 * on the request's own event loop: no thread hops, no locks in the per-request state.
 *
 * <p>On an event loop, a task is one of the loop's {@link LoopTimeouts} (most are timeouts that never
 * fire, set and cancelled on every call); elsewhere, and for a loop already keeping many other
 * delays, it is a Vert.x timer, its delay rounded up to whole milliseconds. A delay of zero or less
 * runs the task on the current context soon, not inline. Thread-safe.
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
        return LoopTimeouts.schedule(vertx, delayNanos, task);
    }
}
