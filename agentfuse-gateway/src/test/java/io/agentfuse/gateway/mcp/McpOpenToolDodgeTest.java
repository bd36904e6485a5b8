package io.agentfuse.gateway.mcp;

import io.agentfuse.mock.mcp.McpMockTool;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open tool breaker cannot be dodged: with {@code tool:db/query} forced open, no message whose
 * bytes could make the server run {@code query} reaches the server — a routing header naming
 * another tool, a batch, a key written twice — each is refused with a JSON-RPC error that says why.
 */
class McpOpenToolDodgeTest {

    private static final String VERSION = "2026-07-28";

    private McpHarness harness;
    private String session;
    private int requestsBefore;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Runs SQL"), McpMockTool.of("fetch", "Fetches"));
        harness.gateway.runtime().mcpToolGuard("db", "query").circuitBreaker().forceOpen("test");
        session = harness.initialize();
        requestsBefore = harness.mcp.requests().size();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anMcpNameHeaderNamingAnotherToolIsRefused() {
        HttpResponse<String> answer = harness.post(harness.toolCall("query"),
                "MCP-Protocol-Version", VERSION, "Mcp-Method", "tools/call", "Mcp-Name", "fetch");

        assertRefused(answer, -32001, "Mcp-Name");
    }

    @Test
    void anMcpMethodHeaderNamingAnotherMethodIsRefused() {
        HttpResponse<String> answer = harness.post(harness.toolCall("query"),
                "MCP-Protocol-Version", VERSION, "Mcp-Method", "tools/list");

        assertRefused(answer, -32001, "Mcp-Method");
    }

    @Test
    void anMcpNameHeaderSentTwiceIsRefused() {
        HttpResponse<String> answer = harness.send(request(harness.toolCall("query").encode())
                .header("MCP-Protocol-Version", VERSION).header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "query").header("Mcp-Name", "fetch").build());

        assertRefused(answer, -32001, "more than once");
    }

    @Test
    void aBatchIsRefused() {
        JsonArray batch = new JsonArray().add(harness.toolCall("fetch")).add(harness.toolCall("query"));

        HttpResponse<String> answer = harness.send(request(batch.encode()).header("Mcp-Session-Id", session).build());

        assertRefused(answer, -32600, "batches");
    }

    @Test
    void aToolNameWrittenTwiceIsRefused() {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"query\",\"name\":\"fetch\",\"arguments\":{}}}";

        HttpResponse<String> answer = harness.send(request(body).header("Mcp-Session-Id", session).build());

        assertRefused(answer, -32600, "twice");
    }

    @Test
    void aMethodWrittenTwiceIsRefused() {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"method\":\"ping\","
                + "\"params\":{\"name\":\"query\",\"arguments\":{}}}";

        HttpResponse<String> answer = harness.send(request(body).header("Mcp-Session-Id", session).build());

        assertRefused(answer, -32600, "twice");
    }

    @Test
    void theOpenToolItselfStillAnswersCircuitOpenWithoutReachingTheServer() {
        HttpResponse<String> answer = harness.post(harness.toolCall("query"),
                "MCP-Protocol-Version", VERSION, "Mcp-Method", "tools/call", "Mcp-Name", "query");

        assertThat(McpHarness.text(answer)).startsWith("CIRCUIT_OPEN: query is unavailable");
        assertThat(harness.mcp.requests()).hasSize(requestsBefore);
    }

    private void assertRefused(HttpResponse<String> answer, int code, String reason) {
        assertThat(harness.mcp.requests()).as("requests that reached the server").hasSize(requestsBefore);
        assertThat(answer.statusCode()).isEqualTo(400);
        JsonObject error = McpHarness.message(answer).getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(code);
        assertThat(error.getString("message")).contains(reason);
        assertThat(error.getJsonObject("data").getString("type")).isEqualTo("invalid_request");
    }

    private HttpRequest.Builder request(String body) {
        return HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }
}
