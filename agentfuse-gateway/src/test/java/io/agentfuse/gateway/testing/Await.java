package io.agentfuse.gateway.testing;

import io.vertx.core.Future;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Blocks a test thread on a Vert.x future, with a generous bound so a bug fails instead of hanging. */
public final class Await {

    /**
     * How long a test waits for a future or a condition before it fails: a hang guard, never a
     * measure, so it is generous for a machine busy with other builds.
     */
    static final long BOUND_SECONDS = 60;

    private Await() {
    }

    /** The future's result; its failure is rethrown as is. */
    public static <T> T result(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("future did not complete: " + e, e);
        }
    }

    /** The future's failure; fails the test when it succeeded. */
    public static Throwable failure(Future<?> future) {
        try {
            future.toCompletionStage().toCompletableFuture().get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("future did not complete: " + e, e);
        }
        throw new AssertionError("expected the future to fail, but it succeeded");
    }
}
