package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 2026-07-28 era over raw HTTP: no initialize and no session; {@code Mcp-Method} and
 * {@code Mcp-Name} name the method and tool, and the proxy picks the breaker from them.
 */
class McpStatelessEraTest {

    private static final String VERSION = "2026-07-28";

    private McpHarness harness;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("search", "Searches").idempotent(true), McpMockTool.of("fetch", "Fetches"));
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void listsAndCallsToolsWithoutASession() {
        HttpResponse<String> list = harness.post(harness.rpc("tools/list", new JsonObject()),
                "MCP-Protocol-Version", VERSION, "Mcp-Method", "tools/list");
        HttpResponse<String> call = stateless(harness.toolCall("search"), "search");

        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.headers().firstValue("mcp-session-id")).isEmpty();
        assertThat(McpHarness.result(list).getJsonArray("tools")).hasSize(2);
        assertThat(McpHarness.text(call)).isEqualTo("ok");
        assertThat(harness.mcp.sessions()).isEmpty();
        assertThat(harness.mcp.requests().get(1).header("mcp-name")).contains("search");
    }

    @Test
    void theToolBreakerIsTheOneTheMcpNameHeaderNames() {
        harness.mcp.script("fetch", McpToolStep.toolError("upstream site down", 3));
        for (int i = 0; i < 3; i++) {
            stateless(harness.toolCall("fetch"), "fetch");
        }

        HttpResponse<String> open = stateless(harness.toolCall("fetch"), "fetch");

        assertThat(harness.breaker("tool:db/fetch").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        assertThat(McpHarness.text(open)).isEqualTo("CIRCUIT_OPEN: fetch is unavailable, retry after 300 s");
        // the id of the request is the id of the proxy's answer
        assertThat(McpHarness.message(open).getInteger("id")).isEqualTo(4);
        assertThat(McpHarness.text(stateless(harness.toolCall("search"), "search"))).isEqualTo("ok");
    }

    @Test
    void aHeaderThatNamesAnotherToolThanTheBodyIsRefusedByTheProxyAndReachesNoServer() {
        // Given headers that name another tool than the body
        HttpResponse<String> answer = stateless(harness.toolCall("fetch"), "search");

        // Then the proxy refuses it as the specification's header mismatch, without asking the server
        assertThat(answer.statusCode()).isEqualTo(400);
        JsonObject error = McpHarness.message(answer).getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(-32001);
        assertThat(error.getString("message")).contains("Mcp-Name").doesNotContain("search");
        assertThat(harness.mcp.requests()).isEmpty();
        assertThat(harness.breaker("tool:db/search")).isEmpty();
        assertThat(harness.breaker("tool:db/fetch")).isEmpty();
    }

    @Test
    void theGetStreamDoesNotExistInThisEraAndTheServersRefusalIsRelayed() {
        HttpResponse<String> get = harness.send(HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("accept", "text/event-stream").header("MCP-Protocol-Version", VERSION).GET().build());

        assertThat(get.statusCode()).isEqualTo(405);
    }

    @Test
    void anUnknownServerIsAJsonRpcNotFoundForTheRequest() {
        JsonObject request = harness.rpc("tools/list", new JsonObject());
        HttpResponse<String> answer = harness.post("/mcp/nope", request,
                "MCP-Protocol-Version", VERSION, "Mcp-Method", "tools/list");

        assertThat(answer.statusCode()).isEqualTo(200);
        JsonObject message = new JsonObject(answer.body());
        assertThat(message.getValue("id")).isEqualTo(request.getValue("id"));
        assertThat(message.getJsonObject("error").getJsonObject("data").getString("type")).isEqualTo("not_found");
    }

    private HttpResponse<String> stateless(JsonObject body, String toolHeader) {
        return harness.post(body, "MCP-Protocol-Version", VERSION, "Mcp-Method", body.getString("method"),
                "Mcp-Name", toolHeader);
    }
}
