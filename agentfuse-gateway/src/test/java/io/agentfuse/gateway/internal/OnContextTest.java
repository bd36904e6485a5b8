package io.agentfuse.gateway.internal;

import io.agentfuse.gateway.GatewayVertx;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class OnContextTest {

    private final Vertx vertx = GatewayVertx.create();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void anActionForAnEventLoopContextRunsOnItsEventLoopThreadAlsoWhenAWorkerOfThatContextAsks() throws Exception {
        // Given a worker pool running blocking code for an event-loop context (which it sees as current)
        Context context = vertx.getOrCreateContext();
        WorkerExecutor workers = vertx.createSharedWorkerExecutor("on-context-test", 1);
        CompletableFuture<Boolean> askedFromWorker = new CompletableFuture<>();
        CompletableFuture<Boolean> ranOnEventLoop = new CompletableFuture<>();

        // When that blocking code asks for an action on the context
        context.runOnContext(v -> workers.executeBlocking(() -> {
            askedFromWorker.complete(Vertx.currentContext() == context && !Context.isOnEventLoopThread());
            OnContext.run(context, () -> ranOnEventLoop.complete(Context.isOnEventLoopThread()));
            return null;
        }, false));

        // Then the action hops to the event loop instead of running on the worker thread
        assertThat(askedFromWorker.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ranOnEventLoop.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anActionAskedForOnItsOwnEventLoopRunsAtOnce() throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<Boolean> ranBeforeReturning = new CompletableFuture<>();

        context.runOnContext(v -> {
            boolean[] ran = {false};
            OnContext.run(context, () -> ran[0] = true);
            ranBeforeReturning.complete(ran[0]);
        });

        assertThat(ranBeforeReturning.get(10, TimeUnit.SECONDS)).isTrue();
    }
}
