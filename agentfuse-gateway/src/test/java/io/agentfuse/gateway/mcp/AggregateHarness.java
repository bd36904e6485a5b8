package io.agentfuse.gateway.mcp;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A gateway whose {@code mcp.aggregate} serves the mock MCP servers {@code db} and {@code search}
 * (real servers on 127.0.0.1; {@code ${DB_URL}}, {@code ${SEARCH_URL}} in the YAML, or a URL given
 * for a server that is down), breakers on {@link #clock}. A raw HTTP client speaks JSON-RPC to
 * {@code /mcp}, in a 2025-11-25 session ({@link #initialize}) or statelessly ({@link #stateless}).
 */
final class AggregateHarness implements AutoCloseable {

    static final String CONFIG = """
            server: { port: 0 }
            retry: { maxAttempts: 1, initialDelay: 10ms, multiplier: 2, maxDelay: 1s }
            mcpServers:
              db:     { url: "${DB_URL}", timeout: 5s, listTimeout: 2s, circuitBreaker: { failureThreshold: 3, resetTimeout: 5m } }
              search: { url: "${SEARCH_URL}", timeout: 5s, listTimeout: 2s, circuitBreaker: { failureThreshold: 3, resetTimeout: 5m } }
            mcp:
              aggregate: [db, search]
            """;

    final Vertx vertx;
    final Map<String, MockMcpServer> servers = new LinkedHashMap<>();
    final GatewayServer gateway;
    final ManualClock clock = new ManualClock();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int nextId = 1;

    private AggregateHarness(String yaml, Map<String, String> urls) {
        vertx = GatewayVertx.create();
        Map<String, String> environment = new HashMap<>();
        for (String name : new String[] {"db", "search"}) {
            String given = urls.get(name);
            if (given == null) {
                MockMcpServer mock = Await.result(MockMcpServer.start(vertx, 0));
                servers.put(name, mock);
                given = mock.url();
            }
            environment.put(name.toUpperCase() + "_URL", given);
        }
        AgentfuseConfig config = ConfigLoader.parse(yaml, "test.yaml", environment);
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).clock(clock).build()));
    }

    /** Both servers mocks. */
    static AggregateHarness start(String yaml) {
        return new AggregateHarness(yaml, Map.of());
    }

    /** The servers of {@code urls} at those URLs (down ones), the others mocks. */
    static AggregateHarness start(String yaml, Map<String, String> urls) {
        return new AggregateHarness(yaml, urls);
    }

    MockMcpServer mock(String name) {
        return servers.get(name);
    }

    /** Stops the server {@code name}: its port refuses connections from now on. */
    void kill(String name) {
        Await.result(servers.remove(name).close());
    }

    JsonObject rpc(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", nextId++).put("method", method).put("params", params);
    }

    JsonObject toolCall(String tool) {
        return rpc("tools/call", new JsonObject().put("name", tool).put("arguments", new JsonObject()));
    }

    /** Opens a 2025-11-25 session at {@code /mcp}; its {@code Mcp-Session-Id}. */
    String initialize(String... headers) {
        HttpResponse<String> answer = post(initializeRequest(), headers);
        return answer.headers().firstValue("mcp-session-id")
                .orElseThrow(() -> new AssertionError("no session: " + answer.body()));
    }

    JsonObject initializeRequest() {
        return rpc("initialize", new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
                .put("clientInfo", new JsonObject().put("name", "test").put("version", "1")));
    }

    /** A 2026-07-28 request: the version and routing headers of {@code body}. */
    HttpResponse<String> stateless(JsonObject body) {
        String method = body.getString("method");
        JsonObject params = body.getJsonObject("params");
        return "tools/call".equals(method)
                ? post(body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method, "Mcp-Name", params.getString("name"))
                : post(body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method);
    }

    HttpResponse<String> post(JsonObject body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
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

    @Override
    public void close() {
        try {
            Await.result(gateway.close());
            servers.values().forEach(server -> Await.result(server.close()));
        } finally {
            Await.result(vertx.close());
        }
    }
}
