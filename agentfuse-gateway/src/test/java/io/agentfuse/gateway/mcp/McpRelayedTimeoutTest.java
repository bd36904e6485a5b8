package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A passed-through {@code POST} whose answer began and then stalled past its server's
 * {@code timeout} is answered, not cut: a JSON answer with the JSON-RPC error for the request's id
 * (504), an SSE answer with that error as its last event, after the server's whole events and
 * without its half-written one. MCP clients surface it as the request's failure (the MCP Java SDK
 * throws {@link McpError}); the server's breaker does not count the timeout, as before.
 */
class McpRelayedTimeoutTest {

    private static final String CONFIG = """
            server: { port: 0 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 1s
                circuitBreaker: { failureThreshold: 5, resetTimeout: 5m, halfOpenRequests: 1 }
            """;
    private static final String PROGRESS = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
            + "\"params\":{\"progressToken\":1,\"progress\":1}}\n\n";

    private HandWrittenMcpServer server;
    private McpHarness harness;

    @AfterEach
    void stop() {
        harness.close();
        server.close();
    }

    @Test
    void aJsonAnswerThatStallsAfterItsHeadIsATimeoutErrorForTheRequestsId() {
        // Given a server whose JSON answer stops half-way
        start((request, message) -> request.response().setChunked(true).putHeader("content-type", "application/json")
                .write("{\"jsonrpc\":\"2.0\",\"id\":"));

        // When a caller reads a resource through the proxy
        JsonObject read = harness.rpc("resources/read", new JsonObject().put("uri", "db://tables"));
        HttpResponse<String> answer = harness.post(read);

        // Then it gets a JSON-RPC error for its request, saying the server timed out
        assertThat(answer.statusCode()).isEqualTo(504);
        JsonObject error = timeoutError(new JsonObject(answer.body()), read);
        assertThat(error.getString("message")).isEqualTo("MCP server db did not answer within 1 s");
        assertThat(serverFailures()).isZero();
    }

    @Test
    void anSseAnswerThatStallsMidEventEndsWithATimeoutEventAfterItsWholeEvents() {
        // Given a server that sends a progress notification, then half an event, then nothing
        start((request, message) -> request.response().setChunked(true).putHeader("content-type", "text/event-stream")
                .write(PROGRESS + "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":"));

        JsonObject prompt = harness.rpc("prompts/get", new JsonObject().put("name", "summary"));
        HttpResponse<String> answer = harness.post(prompt);

        // Then the stream ends cleanly: the notification, and the timeout error in place of the half event
        assertThat(answer.statusCode()).isEqualTo(200);
        List<JsonObject> events = events(answer.body());
        assertThat(events).hasSize(2);
        assertThat(events.get(0).getString("method")).isEqualTo("notifications/progress");
        timeoutError(events.get(1), prompt);
        assertThat(serverFailures()).isZero();
    }

    @Test
    void theMcpJavaSdkSeesATimedOutRequestAsAnErrorOfThatRequest() {
        // Given a server that initializes properly and then never finishes the SSE answer to a ping
        start((request, message) -> {
            if ("initialize".equals(message.getString("method"))) {
                request.response().putHeader("content-type", "application/json").end(HandWrittenMcpServer.result(message,
                        new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
                                .put("serverInfo", new JsonObject().put("name", "stalling").put("version", "1"))).encode());
            } else if (message.getValue("id") == null) {
                request.response().setStatusCode(202).end();
            } else {
                request.response().setChunked(true).putHeader("content-type", "text/event-stream").write(PROGRESS);
            }
        });
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(harness.gateway.baseUrl())
                        .endpoint("/mcp/db").build())
                .requestTimeout(Duration.ofSeconds(20)).initializationTimeout(Duration.ofSeconds(20)).build();
        try {
            client.initialize();

            // Then its ping fails with the proxy's JSON-RPC error, well before the client's own timeout
            assertThatThrownBy(client::ping).isInstanceOf(McpError.class)
                    .hasMessageContaining("MCP server db did not answer within 1 s");
        } finally {
            client.close();
        }
    }

    private void start(java.util.function.BiConsumer<HttpServerRequest, JsonObject> posts) {
        server = HandWrittenMcpServer.start(posts);
        harness = McpHarness.start(CONFIG, server.url());
    }

    /** The error of {@code message}, checked to answer {@code request} with the proxy's timeout. */
    private static JsonObject timeoutError(JsonObject message, JsonObject request) {
        assertThat(message.getValue("id")).isEqualTo(request.getValue("id"));
        JsonObject error = message.getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(-32001);
        assertThat(error.getJsonObject("data").getString("type")).isEqualTo("timeout");
        return error;
    }

    /** The JSON-RPC messages of an SSE body, each event's data parsed. */
    private static List<JsonObject> events(String body) {
        List<JsonObject> messages = new ArrayList<>();
        for (String event : body.split("\n\n")) {
            for (String line : event.split("\n")) {
                if (line.startsWith("data:")) {
                    messages.add(new JsonObject(line.substring(5).trim()));
                }
            }
        }
        return messages;
    }

    private long serverFailures() {
        return harness.breaker("mcp:db").map(CircuitBreaker::snapshot)
                .map(snapshot -> snapshot.counts().values().stream().mapToLong(Long::longValue).sum()).orElse(0L);
    }
}
