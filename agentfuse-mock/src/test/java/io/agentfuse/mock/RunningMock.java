package io.agentfuse.mock;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.concurrent.TimeUnit;

/**
 * A mock provider started on a free loopback port on its own Vert.x before each test, and closed after
 * it: the set-up of the mock's own tests, which reach it over real HTTP.
 */
abstract class RunningMock {

    /** The Vert.x the mock runs on. */
    protected Vertx vertx;
    /** The mock, started. */
    protected MockProvider mock;

    @BeforeEach
    void startMock() throws Exception {
        vertx = Vertx.vertx();
        mock = MockProvider.start(vertx, 0).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopMock() throws Exception {
        mock.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
