package io.agentfuse.gateway.mock;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.LoopbackClient;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.Map;

/** A mock provider on a free loopback port and a client for it, fresh for each test of a subclass. */
abstract class RunningMock {

    Vertx vertx;
    MockProvider mock;
    LoopbackClient client;

    @BeforeEach
    void startMock() {
        vertx = GatewayVertx.create();
        mock = Await.result(MockProvider.start(vertx, 0));
        client = new LoopbackClient(vertx, mock.port()) // a provider's client sends its key
                .withHeaders(Map.of("authorization", "Bearer sk-test", "x-api-key", "sk-ant-test"));
    }

    @AfterEach
    void stopVertx() {
        Await.result(vertx.close());
    }
}
