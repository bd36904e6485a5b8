package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.mock.mcp.McpMockTool;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET} streams hold their connection for as long as they are open: they have connections of
 * their own, as many as calls have, and one stream more is refused as the gateway's overload. So
 * standing streams never leave a healthy tool's calls waiting for a connection until they time
 * out, and a tool's breaker never counts the gateway's own saturation.
 */
class McpConnectionLimitTest {

    /** One event loop, so that every stream and call share one loop's connection pools. */
    private static final String CONFIG = """
            server: { port: 0, eventLoops: 1 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 3s
                circuitBreaker: { failureThreshold: 3, resetTimeout: 5m, halfOpenRequests: 1 }
            """;

    private final List<CompletableFuture<HttpResponse<Stream<String>>>> streams = new ArrayList<>();
    private McpHarness harness;

    @AfterEach
    void stop() {
        streams.forEach(stream -> stream.cancel(true));
        harness.close();
    }

    @Test
    void standingStreamsLeaveCallsTheirConnectionsAndOneStreamMoreIsRefusedAsOverload() {
        // Given as many GET streams open through the proxy as it keeps connections to the server
        harness = McpHarness.start(CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Runs SQL"));
        String session = harness.initialize();
        int limit = McpProxyOptions.defaults().maxConnectionsPerServer();
        for (int i = 0; i < limit; i++) {
            streams.add(harness.http().sendAsync(stream(session).build(), HttpResponse.BodyHandlers.ofLines()));
        }
        Eventually.holds(harness.vertx, () -> harness.mcp.openStreams() == limit);

        // When a caller calls a healthy tool
        HttpResponse<String> call = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        // Then the call gets its connection and its answer, and the tool's breaker counted nothing
        assertThat(call.statusCode()).isEqualTo(200);
        assertThat(McpHarness.result(call).getBoolean("isError")).isFalse();
        assertThat(harness.breaker("tool:db/query").map(CircuitBreaker::snapshot).orElseThrow().counts())
                .containsEntry("consecutiveErrors", 0L);

        // and one stream more is refused at once as the gateway's overload, held against no breaker
        HttpResponse<String> refused = harness.send(stream(session).timeout(Duration.ofSeconds(10)).build());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("retry-after")).contains("1");
        JsonObject error = new JsonObject(refused.body()).getJsonObject("error");
        assertThat(error.getJsonObject("data").getString("type")).isEqualTo("overloaded");
        assertThat(harness.breaker("mcp:db").map(CircuitBreaker::snapshot).orElseThrow().counts())
                .containsEntry("consecutiveErrors", 0L);
        assertThat(harness.mcp.openStreams()).isEqualTo(limit);
    }

    private HttpRequest.Builder stream(String session) {
        return HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("accept", "text/event-stream").header("Mcp-Session-Id", session).GET();
    }
}
