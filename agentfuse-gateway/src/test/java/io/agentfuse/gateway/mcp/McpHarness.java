package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.ManualClock;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A gateway whose {@code mcpServers.db} is a {@link MockMcpServer}, both real servers on
 * 127.0.0.1, the gateway's breakers on {@link #clock}: tests move time by minutes without
 * sleeping. {@code ${MCP_URL}} in the YAML names the mock's endpoint. A raw HTTP client speaks
 * JSON-RPC to {@code /mcp/db}.
 */
final class McpHarness implements AutoCloseable {

    /** One server {@code db}, 3 failures in a row open a tool for 5 minutes, one probe; retries wait 10 ms. */
    static final String CONFIG = """
            server: { port: 0 }
            retry: { maxAttempts: 1, initialDelay: 10ms, multiplier: 2, maxDelay: 1s }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 5s
                retries: 2
                circuitBreaker: { failureThreshold: 3, resetTimeout: 5m, halfOpenRequests: 1 }
            """;

    final Vertx vertx;
    final MockMcpServer mcp;
    final GatewayServer gateway;
    /** The clock of the gateway's breakers. */
    final ManualClock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int nextId = 1;

    private McpHarness(Vertx vertx, MockMcpServer mcp, GatewayServer gateway, ManualClock clock) {
        this.vertx = vertx;
        this.mcp = mcp;
        this.gateway = gateway;
        this.clock = clock;
    }

    static McpHarness start(String yaml) {
        return start(yaml, null);
    }

    /** A harness whose configured MCP URL is {@code url} when given (a dead server), else the mock's. */
    static McpHarness start(String yaml, String url) {
        Vertx vertx = GatewayVertx.create();
        MockMcpServer mcp = Await.result(MockMcpServer.start(vertx, 0));
        AgentfuseConfig config = ConfigLoader.parse(yaml, "test.yaml", Map.of("MCP_URL", url != null ? url : mcp.url()));
        ManualClock clock = new ManualClock();
        GatewayServer gateway = Await.result(GatewayServer.start(vertx, config,
                GatewayOptions.builder().port(0).clock(clock).build()));
        return new McpHarness(vertx, mcp, gateway, clock);
    }

    /** The breaker named {@code name}, if the gateway has it. */
    Optional<CircuitBreaker> breaker(String name) {
        return gateway.runtime().registry().find(name);
    }

    /** A JSON-RPC request body. */
    JsonObject rpc(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", nextId++).put("method", method).put("params", params);
    }

    /** A {@code tools/call} body. */
    JsonObject toolCall(String tool) {
        return rpc("tools/call", new JsonObject().put("name", tool).put("arguments", new JsonObject()));
    }

    /** POSTs {@code body} to {@code /mcp/db} with {@code headers} (name, value, ...). */
    HttpResponse<String> post(JsonObject body, String... headers) {
        return post("/mcp/db", body, headers);
    }

    HttpResponse<String> post(String path, JsonObject body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpClient http() {
        return http;
    }

    /** Opens a 2025-11-25 session through the proxy and returns its {@code Mcp-Session-Id}. */
    String initialize() {
        return initialize("/mcp/db");
    }

    /** Opens a 2025-11-25 session through the proxy at {@code path}. */
    String initialize(String path) {
        HttpResponse<String> answer = post(path, rpc("initialize", new JsonObject().put("protocolVersion", "2025-11-25")
                .put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "test").put("version", "1"))));
        return answer.headers().firstValue("mcp-session-id").orElseThrow();
    }

    /** The JSON-RPC {@code result} of an answer, JSON or SSE. */
    static JsonObject result(HttpResponse<String> answer) {
        return message(answer).getJsonObject("result");
    }

    /** The JSON-RPC message of an answer, JSON or SSE (the last {@code data:} line). */
    static JsonObject message(HttpResponse<String> answer) {
        String body = answer.body();
        if (answer.headers().firstValue("content-type").orElse("").startsWith("text/event-stream")) {
            String data = null;
            for (String line : body.split("\n")) {
                if (line.startsWith("data:")) {
                    data = line.substring(5).trim();
                }
            }
            return new JsonObject(data);
        }
        return new JsonObject(body);
    }

    /** The text of the first content block of a {@code tools/call} result. */
    static String text(HttpResponse<String> answer) {
        return result(answer).getJsonArray("content").getJsonObject(0).getString("text");
    }

    /** The text of {@code /metrics}. */
    String metrics() {
        return send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build()).body();
    }

    @Override
    public void close() {
        try {
            Await.result(gateway.close());
            Await.result(mcp.close());
        } finally {
            Await.result(vertx.close());
        }
    }
}
