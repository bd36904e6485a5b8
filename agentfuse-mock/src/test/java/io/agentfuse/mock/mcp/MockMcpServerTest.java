package io.agentfuse.mock.mcp;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The mock MCP server over real HTTP: its control API, its sessions, and the stateless era's header checks. */
class MockMcpServerTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private Vertx vertx;
    private MockMcpServer mcp;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        mcp = MockMcpServer.start(vertx, 0).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        mcp.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void theControlApiScriptsAToolsAnswers() throws Exception {
        post("/_mcp/tools", new JsonArray().add(new JsonObject().put("name", "query")
                .put("annotations", new JsonObject().put("idempotentHint", true))).encode());
        HttpResponse<String> scripted = post("/_mcp/script", new JsonObject().put("tool", "query")
                .put("steps", new JsonArray().add(new JsonObject().put("isError", true).put("text", "db down"))).encode());
        String session = initialize();

        JsonObject first = call("query", session);
        JsonObject second = call("query", session);

        assertThat(new JsonObject(scripted.body()).getInteger("pending")).isEqualTo(1);
        assertThat(first.getJsonObject("result").getBoolean("isError")).isTrue();
        assertThat(first.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo("db down");
        assertThat(second.getJsonObject("result").getBoolean("isError")).isFalse();
        assertThat(mcp.calls("query")).isEqualTo(2);
    }

    @Test
    void anUnknownStepFieldIsRefusedWithItsName() throws Exception {
        HttpResponse<String> refused = post("/_mcp/script", new JsonObject().put("tool", "query")
                .put("steps", new JsonArray().add(new JsonObject().put("stauts", 500))).encode());

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("unknown step field 'stauts'");
    }

    @Test
    void aSessionRequestWithoutOrWithAnUnknownSessionIsRefused() throws Exception {
        JsonObject list = rpc("tools/list", new JsonObject());

        assertThat(send(mcpRequest(list).build()).statusCode()).isEqualTo(400);
        assertThat(send(mcpRequest(list).header("Mcp-Session-Id", "nope").build()).statusCode()).isEqualTo(404);
    }

    @Test
    void aStatelessRequestWhoseHeadersDoNotMatchItsBodyIsAHeaderMismatch() throws Exception {
        mcp.tools(McpMockTool.of("query", "Reads"));
        HttpResponse<String> answer = send(mcpRequest(rpc("tools/call", new JsonObject().put("name", "query")))
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "other").build());

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(new JsonObject(answer.body()).getJsonObject("error").getInteger("code")).isEqualTo(-32001);
    }

    private String initialize() throws Exception {
        HttpResponse<String> answer = send(mcpRequest(rpc("initialize", new JsonObject()
                .put("protocolVersion", "2025-11-25"))).build());
        return answer.headers().firstValue("mcp-session-id").orElseThrow();
    }

    private JsonObject call(String tool, String session) throws Exception {
        return new JsonObject(send(mcpRequest(rpc("tools/call", new JsonObject().put("name", tool)))
                .header("Mcp-Session-Id", session).build()).body());
    }

    private static JsonObject rpc(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", method).put("params", params);
    }

    private HttpRequest.Builder mcpRequest(JsonObject body) {
        return HttpRequest.newBuilder(URI.create(mcp.url())).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mcp.port() + path))
                .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
