package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The aggregate endpoint between real MCP parts: two servers and a client made with the official
 * MCP Java SDK (2025-11-25 sessions). One killed server leaves the aggregate's list and the other
 * server's calls working, and its tools answer {@code CIRCUIT_OPEN} results once its breaker is
 * open; a call past its timeout is cancelled on its server.
 */
class McpRealServersTest {

    private static final String CONFIG = """
            server: { port: 0 }
            retry: { maxAttempts: 1, initialDelay: 10ms }
            mcpServers:
              alpha: { url: "${ALPHA_URL}", timeout: 10s, listTimeout: 5s, circuitBreaker: { failureThreshold: 3, resetTimeout: 5m } }
              beta:  { url: "${BETA_URL}", timeout: 10s, listTimeout: 5s, circuitBreaker: { failureThreshold: 3, resetTimeout: 5m } }
            tools:
              alpha/slow: { timeout: 1s }
            mcp:
              aggregate: [alpha, beta]
            """;

    private SdkMcpServer alpha;
    private SdkMcpServer beta;
    private Vertx vertx;
    private GatewayServer gateway;
    private McpSyncClient client;

    @BeforeEach
    void start() {
        alpha = SdkMcpServer.start("alpha");
        beta = SdkMcpServer.start("beta");
        vertx = GatewayVertx.create();
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "test.yaml", Map.of("ALPHA_URL", alpha.url(), "BETA_URL", beta.url()));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        client = McpClient.sync(HttpClientStreamableHttpTransport.builder(gateway.baseUrl()).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30))
                .build();
        client.initialize();
    }

    @AfterEach
    void stop() {
        try {
            client.close();
            Await.result(gateway.close());
            Await.result(vertx.close());
        } finally {
            alpha.close();
            beta.close();
        }
    }

    @Test
    void theSdkClientSeesOneServerWithTheToolsOfBoth() {
        List<String> tools = client.listTools().tools().stream().map(Tool::name).toList();
        CallToolResult echo = client.callTool(new CallToolRequest("beta__echo", Map.of("text", "hi")));

        assertThat(tools).containsExactlyInAnyOrder("alpha__echo", "alpha__fail", "alpha__slow",
                "beta__echo", "beta__fail", "beta__slow");
        assertThat(echo.isError()).isFalse();
        assertThat(text(echo)).isEqualTo("beta: hi");
        assertThat(beta.calls("echo")).isEqualTo(1);
    }

    @Test
    void aKilledServerLeavesTheListAndTheOtherServerWorkingAndItsToolsAnswerCircuitOpen() {
        client.listTools();

        beta.kill();

        List<Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(Tool::name).contains("alpha__echo", "beta__echo");
        assertThat(tools).filteredOn(tool -> tool.name().startsWith("beta__"))
                .allSatisfy(tool -> assertThat(tool.description()).contains("MCP server beta is unavailable"));
        assertThat(text(client.callTool(new CallToolRequest("alpha__echo", Map.of("text", "still here")))))
                .isEqualTo("alpha: still here");
        for (int i = 0; i < 3; i++) {
            assertThat(client.callTool(new CallToolRequest("beta__echo", Map.of())).isError()).isTrue();
        }
        CallToolResult open = client.callTool(new CallToolRequest("beta__echo", Map.of()));
        assertThat(open.isError()).isTrue();
        assertThat(text(open)).isEqualTo("CIRCUIT_OPEN: beta is unavailable, retry after 300 s");
        assertThat(text(client.callTool(new CallToolRequest("alpha__echo", Map.of("text", "and now")))))
                .isEqualTo("alpha: and now");
    }

    @Test
    void aToolThatKeepsFailingOpensItsOwnBreakerOnly() {
        for (int i = 0; i < 3; i++) {
            assertThat(text(client.callTool(new CallToolRequest("alpha__fail", Map.of())))).isEqualTo("backend of alpha down");
        }

        CallToolResult open = client.callTool(new CallToolRequest("alpha__fail", Map.of()));

        assertThat(text(open)).isEqualTo("CIRCUIT_OPEN: alpha__fail is unavailable, retry after 300 s");
        assertThat(alpha.calls("fail")).isEqualTo(3);
        assertThat(text(client.callTool(new CallToolRequest("alpha__echo", Map.of("text", "ok"))))).isEqualTo("alpha: ok");
    }

    @Test
    void aCallPastItsTimeoutIsCancelledOnTheServer() {
        CallToolResult late = client.callTool(new CallToolRequest("alpha__slow", Map.of()));

        assertThat(late.isError()).isTrue();
        assertThat(text(late)).isEqualTo("TIMEOUT: alpha__slow did not answer within 1 s; the call was cancelled");
        JsonObject call = alpha.received("tools/call").get(0);
        assertThat(alpha.received("notifications/cancelled")).singleElement().satisfies(cancel ->
                assertThat(cancel.getJsonObject("params").getValue("requestId")).isEqualTo(call.getValue("id")));
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }
}
