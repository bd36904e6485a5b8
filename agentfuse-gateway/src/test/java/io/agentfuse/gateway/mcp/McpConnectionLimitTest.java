package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
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
 * out, and a tool's breaker never counts the gateway's own saturation. Calls are bounded the same
 * way: one call more than the connections it may open is refused at once, not queued.
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
    private final List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    private McpHarness harness;

    @AfterEach
    void stop() {
        streams.forEach(stream -> stream.cancel(true));
        calls.forEach(call -> call.cancel(true));
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

    @Test
    void oneCallMoreThanTheConnectionsToAServerIsRefusedAsOverloadWithoutWaiting() {
        // Given as many calls in flight to a slow tool as the proxy keeps connections to the server
        harness = McpHarness.start(CONFIG.replace("timeout: 3s", "timeout: 60s"));
        harness.mcp.tools(McpMockTool.of("slow", "Takes its time"))
                .defaultStep("slow", McpToolStep.builder().delayMs(60_000).build());
        String session = harness.initialize();
        int limit = McpProxyOptions.defaults().maxConnectionsPerServer();
        for (int i = 0; i < limit; i++) {
            calls.add(harness.http().sendAsync(call(session, harness.toolCall("slow")), HttpResponse.BodyHandlers.ofString()));
        }
        Eventually.holds(harness.vertx, () -> harness.mcp.calls("slow") == limit);

        // When one call more comes
        HttpResponse<String> refused = harness.send(call(session, harness.toolCall("slow")));

        // Then it is refused at once as the gateway's overload, and no breaker holds it against the server
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("retry-after")).contains("1");
        assertThat(new JsonObject(refused.body()).getJsonObject("error").getJsonObject("data").getString("type"))
                .isEqualTo("overloaded");
        assertThat(harness.mcp.calls("slow")).isEqualTo(limit);
        for (String breaker : List.of("tool:db/slow", "mcp:db")) {
            assertThat(harness.breaker(breaker).map(CircuitBreaker::snapshot).orElseThrow().counts())
                    .as(breaker).containsEntry("consecutiveErrors", 0L);
        }
    }

    private HttpRequest call(String session, JsonObject body) {
        return HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", session).POST(HttpRequest.BodyPublishers.ofString(body.encode())).build();
    }

    private HttpRequest.Builder stream(String session) {
        return HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("accept", "text/event-stream").header("Mcp-Session-Id", session).GET();
    }
}
