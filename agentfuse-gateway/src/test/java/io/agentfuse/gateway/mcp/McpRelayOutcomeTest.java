package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.testing.Eventually;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A passed-through request (not {@code tools/call} or {@code tools/list}) is judged by how its
 * answer ends, not by its status line: an answer the server cuts after its head is a connection
 * error of the server's ({@code mcp:<server>}), on a {@code POST} and on the {@code GET} stream alike.
 * The {@code POST}'s caller is told so by a JSON-RPC error event for its request, after the events
 * the server did send; the {@code GET} stream, which answers no request, is cut as the server cut it.
 */
class McpRelayOutcomeTest {

    private static final String CONFIG = """
            server: { port: 0 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 20s
                circuitBreaker: { failureThreshold: 5, resetTimeout: 5m, halfOpenRequests: 1 }
            """;

    private HandWrittenMcpServer server;
    private McpHarness harness;

    @BeforeEach
    void start() {
        // A server that begins every answer as an SSE stream, sends one notification, and resets the connection
        server = HandWrittenMcpServer.start((request, message) -> cutAfterHead(request.response()))
                .otherMethods(request -> cutAfterHead(request.response()));
        harness = McpHarness.start(CONFIG, server.url());
    }

    @AfterEach
    void stop() {
        harness.close();
        server.close();
    }

    @Test
    void aPostWhoseAnswerIsCutAfterItsHeadCountsAgainstTheServer() {
        for (int i = 0; i < 2; i++) {
            JsonObject initialize = harness.rpc("initialize", new JsonObject());
            HttpResponse<String> answer = harness.post(initialize);

            assertThat(answer.body()).startsWith("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"");
            JsonObject last = McpHarness.message(answer);
            assertThat(last.getValue("id")).isEqualTo(initialize.getValue("id"));
            assertThat(last.getJsonObject("error").getJsonObject("data").getString("type")).isEqualTo("upstream_unreachable");
        }

        Eventually.holds(harness.vertx, () -> failures() == 2);
    }

    @Test
    void aGetStreamCutByTheServerCountsAgainstTheServer() {
        try {
            harness.send(HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                    .header("accept", "text/event-stream").GET().build());
        } catch (UncheckedIOException cutOff) {
            // as above
        }

        Eventually.holds(harness.vertx, () -> failures() == 1);
    }

    private void cutAfterHead(HttpServerResponse response) {
        response.setChunked(true).putHeader("content-type", "text/event-stream")
                .write("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
                .onComplete(written -> server.vertx.setTimer(20, id -> response.reset()));
    }

    private long failures() {
        return harness.breaker("mcp:db").map(CircuitBreaker::snapshot)
                .map(snapshot -> snapshot.counts().getOrDefault("consecutiveErrors", 0L)).orElse(0L);
    }
}
