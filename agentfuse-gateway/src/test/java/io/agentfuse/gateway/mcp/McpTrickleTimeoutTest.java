package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.testing.Eventually;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A passed-through {@code POST} is bounded as a whole by its server's {@code timeout}: a server that
 * trickles a comment now and then is never idle, yet its answer ends, with the JSON-RPC error for the
 * request's id as its last event, and its stream is let go.
 */
class McpTrickleTimeoutTest {

    private static final String CONFIG = """
            server: { port: 0 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 1s
            """;

    private final AtomicBoolean streamLetGo = new AtomicBoolean();
    private HandWrittenMcpServer server;
    private McpHarness harness;

    @AfterEach
    void stop() {
        harness.close();
        server.close();
    }

    @Test
    void aTricklingAnswerEndsAtTheServersTimeout() throws Exception {
        // Given a server that answers with an SSE comment every 100 ms, and never a message
        server = HandWrittenMcpServer.start((request, message) -> {
            var response = request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            response.closeHandler(v -> streamLetGo.set(true));
            server.vertx.setPeriodic(100, id -> {
                if (response.closed()) {
                    server.vertx.cancelTimer(id);
                } else {
                    response.write(":\n");
                }
            });
        });
        harness = McpHarness.start(CONFIG, server.url());

        // When a caller pings it, the answer ends at the timeout (well within the caller's own patience)
        JsonObject ping = harness.rpc("ping", new JsonObject());
        CompletableFuture<HttpResponse<String>> answer = harness.http().sendAsync(HttpRequest.newBuilder(
                        URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(ping.encode())).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonObject last;
        try {
            last = McpHarness.message(answer.get(20, TimeUnit.SECONDS));
        } finally {
            answer.cancel(true);
        }

        // with the timeout as the answer to the ping
        assertThat(last.getValue("id")).isEqualTo(ping.getValue("id"));
        assertThat(last.getJsonObject("error").getString("message")).isEqualTo("MCP server db did not answer within 1 s");

        // and the server's stream is let go
        Eventually.holds(harness.vertx, streamLetGo::get);
    }
}
