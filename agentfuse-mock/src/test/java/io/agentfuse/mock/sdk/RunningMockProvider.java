package io.agentfuse.mock.sdk;

import io.agentfuse.mock.MockCredentials;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.concurrent.TimeUnit;

/** A mock provider on a free loopback port for each test, closed after it. */
abstract class RunningMockProvider {

    protected Vertx vertx;
    protected MockProvider mock;

    /** The credentials the mock accepts; the defaults unless a test class says otherwise. */
    protected MockCredentials credentials() {
        return MockCredentials.defaults();
    }

    @BeforeEach
    void startMock() throws Exception {
        vertx = Vertx.vertx();
        mock = await(MockProvider.start(vertx, "127.0.0.1", 0, credentials()));
    }

    @AfterEach
    void stopMock() throws Exception {
        await(mock.close());
        await(vertx.close());
    }

    protected static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
