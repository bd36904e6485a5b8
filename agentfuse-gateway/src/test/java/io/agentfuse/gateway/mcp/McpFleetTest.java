package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.redis.RedisStateStore;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two gateways with {@code state.store: redis} on a real redis-server, in front of one real MCP
 * server (the official Java SDK's): a tool that trips on one gateway is open on the other, which
 * then answers {@code CIRCUIT_OPEN} without reaching the server.
 */
class McpFleetTest {

    /** A hang guard, not a measure: connecting to Redis and hearing from the other gateway may take long on a busy machine. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CONFIG = """
            server: { port: 0 }
            retry: { maxAttempts: 1, initialDelay: 10ms }
            state:
              store: redis
              redis: { uri: "${REDIS_URI}", keyPrefix: "${PREFIX}" }
            mcpServers:
              alpha: { url: "${ALPHA_URL}", timeout: 10s, circuitBreaker: { failureThreshold: 3, resetTimeout: 5m } }
            mcp:
              aggregate: [alpha]
            """;

    private final String prefix = "mcp-fleet-" + UUID.randomUUID() + ":";
    private final List<AutoCloseable> closing = new ArrayList<>();
    private RedisServerProcess redis;
    private SdkMcpServer alpha;

    @BeforeEach
    void start() {
        redis = RedisServerProcess.start();
        alpha = SdkMcpServer.start("alpha");
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        alpha.close();
        redis.close();
    }

    @Test
    void aToolTrippedOnOneGatewayIsOpenOnTheOther() {
        GatewayServer a = gateway();
        GatewayServer b = gateway();
        Eventually.await("both gateways share state on Redis", WAIT, () -> store(a).isConnected() && store(b).isConnected());
        McpSyncClient onA = client(a);
        McpSyncClient onB = client(b);
        // B has called the tool once, so its breaker exists when the trip arrives
        assertThat(onB.callTool(new CallToolRequest("alpha__fail", Map.of())).isError()).isTrue();

        for (int i = 0; i < 3; i++) {
            assertThat(text(onA.callTool(new CallToolRequest("alpha__fail", Map.of())))).isEqualTo("backend of alpha down");
        }

        assertThat(a.runtime().registry().find("tool:alpha/fail").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        Eventually.await("B's tool breaker opens", WAIT,
                () -> b.runtime().registry().find("tool:alpha/fail").orElseThrow().state() == CircuitState.OPEN);
        long reached = alpha.calls("fail");
        CallToolResult onBNow = onB.callTool(new CallToolRequest("alpha__fail", Map.of()));
        assertThat(onBNow.isError()).isTrue();
        assertThat(text(onBNow)).startsWith("CIRCUIT_OPEN: alpha__fail is unavailable, retry after ");
        assertThat(alpha.calls("fail")).isEqualTo(reached);
        // its sibling was not tripped anywhere
        assertThat(text(onB.callTool(new CallToolRequest("alpha__echo", Map.of("text", "hi"))))).isEqualTo("alpha: hi");
    }

    private GatewayServer gateway() {
        Vertx vertx = GatewayVertx.create();
        closing.add(() -> Await.result(vertx.close()));
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "test.yaml",
                Map.of("REDIS_URI", redis.uri(), "PREFIX", prefix, "ALPHA_URL", alpha.url()));
        GatewayServer gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        closing.add(() -> Await.result(gateway.close()));
        return gateway;
    }

    private McpSyncClient client(GatewayServer gateway) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(gateway.baseUrl()).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30))
                .build();
        closing.add(client::close);
        client.initialize();
        return client;
    }

    private static RedisStateStore store(GatewayServer gateway) {
        return (RedisStateStore) gateway.runtime().registry().stateStore().orElseThrow();
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }
}
