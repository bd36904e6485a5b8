package io.agentfuse.gateway.limits;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A gateway and a mock provider in a process of their own, for tests that must limit the
 * process (its open files): started with the YAML file as the only argument, it prints
 * {@code PORT <n>} once listening and stops on SIGTERM, as {@code agentfuse serve} does.
 */
public final class ChildGateway {

    private ChildGateway() {
    }

    public static void main(String[] args) throws Exception {
        Vertx vertx = Vertx.vertx();
        MockProvider mock = MockProvider.start(vertx, 0).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        AgentfuseConfig config = ConfigLoader.parse(Files.readString(Path.of(args[0])), args[0],
                Map.of("MOCK_PORT", Integer.toString(mock.port())));
        GatewayServer gateway = GatewayServer.start(vertx, config).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                gateway.close().eventually(vertx::close).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("shutdown: " + e);
            }
            stopped.countDown();
        }));
        System.out.println("PORT " + gateway.port());
        System.out.flush();
        stopped.await();
    }
}
