package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An answer larger than the proxy reads (an SSE event over {@code maxSseEvent}) still gets its caller
 * an answer: a JSON-RPC error with the request's id that says the answer was too large, counted
 * against whoever's answer it was: the server's for {@code tools/list}, the tool's for {@code tools/call}.
 */
class McpOversizedAnswerTest {

    private static final String CONFIG = """
            server: { port: 0 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 20s
                circuitBreaker: { failureThreshold: 3, resetTimeout: 5m, halfOpenRequests: 1 }
            """;
    /** One event's text, over the 8 MiB an SSE event may have. */
    private static final String HUGE_TEXT = "B".repeat(9 * 1024 * 1024);

    private HandWrittenMcpServer server;
    private McpHarness harness;

    @AfterEach
    void stop() {
        harness.close();
        server.close();
    }

    @Test
    void aToolsListWithAnEventTooLargeIsAnsweredWithAnErrorCountedAgainstTheServer() {
        // Given a server whose tools/list answer is one SSE event of 9 MiB
        start();
        JsonObject list = harness.rpc("tools/list", new JsonObject());

        // When a caller lists the tools
        HttpResponse<String> answer = harness.post(list);

        // Then it gets an error with its id saying the answer was too large, and the server's breaker counted it
        assertThat(answer.statusCode()).isEqualTo(502);
        JsonObject error = McpHarness.message(answer).getJsonObject("error");
        assertThat(McpHarness.message(answer).getValue("id")).isEqualTo(list.getValue("id"));
        assertThat(error.getString("message")).contains("too large").contains("maxSseEvent");
        assertThat(error.getJsonObject("data").getString("type")).isEqualTo("upstream_error");
        assertThat(failures("mcp:db")).isEqualTo(1);
    }

    @Test
    void aToolCallWithAnEventTooLargeIsTheToolsFailureNotTheProxys() {
        start();
        JsonObject call = harness.toolCall("query");

        HttpResponse<String> answer = harness.post(call);

        assertThat(answer.statusCode()).isEqualTo(502);
        JsonObject error = McpHarness.message(answer).getJsonObject("error");
        assertThat(McpHarness.message(answer).getValue("id")).isEqualTo(call.getValue("id"));
        assertThat(error.getString("message")).contains("too large").doesNotContain("failed in the proxy");
        assertThat(failures("tool:db/query")).isEqualTo(1);
        assertThat(failures("mcp:db")).isZero();
        assertThat(harness.metrics()).contains(
                "agentfuse_mcp_tool_calls_total{outcome=\"too_large\",server=\"db\",tool=\"query\"} 1.0");
    }

    private void start() {
        server = HandWrittenMcpServer.start((request, message) -> {
            JsonObject result = "tools/list".equals(message.getString("method"))
                    ? new JsonObject().put("tools", new JsonArray().add(new JsonObject().put("name", "query")
                            .put("description", HUGE_TEXT)))
                    : new JsonObject().put("content", new JsonArray().add(new JsonObject().put("type", "text")
                            .put("text", HUGE_TEXT)));
            request.response().putHeader("content-type", "text/event-stream")
                    .end(HandWrittenMcpServer.event(HandWrittenMcpServer.result(message, result)));
        });
        harness = McpHarness.start(CONFIG, server.url());
    }

    /** The failures in a row that {@code breaker} counts (none when it does not exist). */
    private long failures(String breaker) {
        return harness.breaker(breaker).map(CircuitBreaker::snapshot)
                .map(snapshot -> snapshot.counts().getOrDefault("consecutiveErrors", 0L)).orElse(0L);
    }
}
