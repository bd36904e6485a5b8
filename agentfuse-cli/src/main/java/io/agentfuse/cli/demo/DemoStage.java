package io.agentfuse.cli.demo;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.mock.mcp.MockMcpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The stage the demo plays on: one process with a mock provider, a mock MCP server and the agentfuse gateway on
 * free loopback ports, and an HTTP client that plays the agent. Closing it stops everything.
 */
final class DemoStage implements AutoCloseable {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final Vertx vertx;
    private final MockProvider mock;
    private final MockMcpServer mcp;
    private final GatewayServer gateway;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    private DemoStage(Vertx vertx, MockProvider mock, MockMcpServer mcp, GatewayServer gateway) {
        this.vertx = vertx;
        this.mock = mock;
        this.mcp = mcp;
        this.gateway = gateway;
        this.baseUrl = "http://127.0.0.1:" + gateway.port();
    }

    /** Starts the mock provider and the gateway, with time divided by {@code speed}. */
    static DemoStage start(double speed) throws Exception {
        Vertx vertx = GatewayVertx.create();
        try {
            MockProvider mock = await(MockProvider.start(vertx, "127.0.0.1", 0).toCompletionStage().toCompletableFuture());
            MockMcpServer mcp = await(MockMcpServer.start(vertx, 0).toCompletionStage().toCompletableFuture());
            AgentfuseConfig config = ConfigLoader.parse(DemoConfig.yaml(mock.port(), speed)
                    + McpScenario.yaml(mcp.url(), speed), "demo.yaml", Map.of());
            GatewayServer gateway = await(GatewayServer.start(vertx, config).toCompletionStage().toCompletableFuture());
            return new DemoStage(vertx, mock, mcp, gateway);
        } catch (Exception e) {
            vertx.close();
            throw e;
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }

    /**
     * Sends a few requests through the gateway so that the first scenario's timeline shows the
     * guards at work, not the JVM loading classes.
     */
    void warmUp() throws IOException, InterruptedException {
        for (int i = 0; i < 20; i++) {
            ask("gpt-4o-mini", "warm up");
            ask("claude-haiku-4", "warm up");
        }
        mock.reset();
    }

    /** The mock provider, to script what the upstream models answer. */
    MockProvider mock() {
        return mock;
    }

    /** The requests the mock provider received for the upstream model {@code upstreamModel}, oldest first. */
    List<RecordedRequest> requestsFor(String upstreamModel) {
        return mock.requestsFor(upstreamModel);
    }

    /** Sends an OpenAI-dialect chat request for {@code model} with {@code messages}. */
    Reply chat(String model, JsonArray messages) throws IOException, InterruptedException {
        JsonObject body = new JsonObject().put("model", model).put("messages", messages);
        return post("/v1/chat/completions", body);
    }

    /** Sends an OpenAI-dialect chat request with one user message. */
    Reply ask(String model, String prompt) throws IOException, InterruptedException {
        return chat(model, new JsonArray().add(new JsonObject().put("role", "user").put("content", prompt)));
    }

    /** Sends an OpenAI-dialect request with one user message, asking for {@code maxTokens}, in the agent session {@code session}. */
    Reply askInSession(String model, String prompt, int maxTokens, String session) throws IOException, InterruptedException {
        JsonObject body = new JsonObject().put("model", model).put("max_tokens", maxTokens)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", prompt)));
        return post("/v1/chat/completions", body, Map.of("x-agentfuse-session", session));
    }

    /** The mock MCP server behind {@code /mcp/database}. */
    MockMcpServer mcp() {
        return mcp;
    }

    /** POSTs the JSON-RPC message {@code body} to the MCP proxy at {@code path}, in the session {@code session}. */
    Reply mcpPost(String path, JsonObject body, String session) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(REQUEST_TIMEOUT)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response, parse(response.body()));
    }

    /** The admin view of breaker {@code name}. */
    JsonObject breaker(String name) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/admin/breakers/" + name))
                .timeout(REQUEST_TIMEOUT).GET().build();
        return parse(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }

    private Reply post(String path, JsonObject body) throws IOException, InterruptedException {
        return post(path, body, Map.of());
    }

    private Reply post(String path, JsonObject body, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(REQUEST_TIMEOUT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        headers.forEach(builder::header);
        HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response, parse(response.body()));
    }

    private static JsonObject parse(String text) {
        try {
            return new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            return new JsonObject();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            gateway.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            mock.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            mcp.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
