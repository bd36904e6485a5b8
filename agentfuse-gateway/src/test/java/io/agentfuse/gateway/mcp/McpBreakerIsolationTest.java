package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which breaker a failure counts for: a tool's bad answers trip that tool only, its siblings keep
 * working and stay listed; a dead server trips {@code mcp:<server>}; retries only for tools that
 * are idempotent or configured to retry.
 */
class McpBreakerIsolationTest {

    private McpHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void isErrorResultsTripOnlyTheToolAndItsSiblingsKeepWorking() {
        // Given a server with two tools, one of which answers isError three times
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("flaky", "Fails"), McpMockTool.of("query", "Works").idempotent(true));
        String session = harness.initialize();
        harness.mcp.script("flaky", McpToolStep.toolError("database temporarily unavailable", 3));

        // When the agent calls the failing tool three times
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = harness.post(harness.toolCall("flaky"), "Mcp-Session-Id", session);
            // the server's own isError answer is relayed untouched
            assertThat(McpHarness.text(answer)).isEqualTo("database temporarily unavailable");
        }

        // Then only its breaker is open; the server's transport breaker is not
        assertThat(harness.breaker("tool:db/flaky").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        assertThat(harness.breaker("mcp:db").orElseThrow().state()).isEqualTo(CircuitState.CLOSED);
        // and the sibling still answers, from the server
        assertThat(McpHarness.text(harness.post(harness.toolCall("query"), "Mcp-Session-Id", session))).isEqualTo("ok");
        assertThat(harness.mcp.calls("query")).isEqualTo(1);
        // and tools/list still lists both
        JsonArray tools = McpHarness.result(harness.post(harness.rpc("tools/list", new JsonObject()),
                "Mcp-Session-Id", session)).getJsonArray("tools");
        assertThat(tools.stream().map(tool -> ((JsonObject) tool).getString("name"))).containsExactly("flaky", "query");
    }

    @Test
    void anIsErrorResultInsideAnSseAnswerIsAFailureToo() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("flaky", "Fails")).sseAnswers(true);
        String session = harness.initialize();
        harness.mcp.script("flaky", McpToolStep.toolError("down", 3));

        HttpResponse<String> answer = null;
        for (int i = 0; i < 3; i++) {
            answer = harness.post(harness.toolCall("flaky"), "Mcp-Session-Id", session);
        }

        assertThat(answer.headers().firstValue("content-type")).contains("text/event-stream");
        assertThat(McpHarness.text(answer)).isEqualTo("down");
        assertThat(harness.breaker("tool:db/flaky").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void annotateToolsAddsANoteToAnOpenToolsDescriptionOnly() {
        harness = McpHarness.start(McpHarness.CONFIG.replace("retries: 2", "retries: 2\n    annotateTools: true"));
        harness.mcp.tools(McpMockTool.of("flaky", "Fails"), McpMockTool.of("query", "Works"));
        String session = harness.initialize();
        harness.mcp.script("flaky", McpToolStep.toolError("down", 3));
        for (int i = 0; i < 3; i++) {
            harness.post(harness.toolCall("flaky"), "Mcp-Session-Id", session);
        }

        JsonArray tools = McpHarness.result(harness.post(harness.rpc("tools/list", new JsonObject()),
                "Mcp-Session-Id", session)).getJsonArray("tools");

        assertThat(tools.getJsonObject(0).getString("description"))
                .startsWith("Fails [agentfuse: this tool is failing; its circuit breaker is open, calls fail fast for 300 s]");
        assertThat(tools.getJsonObject(1).getString("description")).isEqualTo("Works");
    }

    @Test
    void aServerHeldOpenByAnOperatorTellsCallersToComeBackAfterItsResetTimeoutNotAtOnce() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.breaker("mcp:db").orElseThrow().forceOpen("maintenance");

        HttpResponse<String> list = harness.post(harness.rpc("tools/list", new JsonObject()));

        JsonObject error = McpHarness.message(list).getJsonObject("error");
        assertThat(error.getString("message")).isEqualTo("CIRCUIT_OPEN: db is unavailable, retry after 300 s");
        assertThat(error.getJsonObject("data").getLong("retryAfter")).isEqualTo(300L);
        assertThat(list.headers().firstValue("retry-after")).contains("300");
    }

    @Test
    void aDeadServerTripsTheServerBreakerAndThenEveryRequestGetsMinus32000() throws IOException {
        // Given a server URL where nothing listens
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        harness = McpHarness.start(McpHarness.CONFIG, "http://127.0.0.1:" + port + "/mcp");

        // When three different tools are called once each
        for (String tool : new String[] {"a", "b", "c"}) {
            HttpResponse<String> answer = harness.post(harness.toolCall(tool));
            assertThat(answer.statusCode()).isEqualTo(502);
            assertThat(answer.headers().firstValue("x-should-retry")).contains("false");
        }

        // Then the server's breaker is open (no single tool failed three times)
        assertThat(harness.breaker("mcp:db").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        assertThat(harness.breaker("tool:db/a").orElseThrow().state()).isEqualTo(CircuitState.CLOSED);
        // and any request but tools/call is answered with JSON-RPC error -32000 and a Retry-After
        HttpResponse<String> list = harness.post(harness.rpc("tools/list", new JsonObject()));
        JsonObject error = McpHarness.message(list).getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(-32000);
        assertThat(error.getString("message")).isEqualTo("CIRCUIT_OPEN: db is unavailable, retry after 300 s");
        assertThat(error.getJsonObject("data").getLong("retryAfter")).isEqualTo(300L);
        assertThat(list.headers().firstValue("retry-after")).contains("300");
        // and a tool call gets a result the agent's model reads, naming the server, counted as refused
        HttpResponse<String> call = harness.post(harness.toolCall("a"));
        assertThat(call.statusCode()).isEqualTo(200);
        assertThat(McpHarness.result(call).getBoolean("isError")).isTrue();
        assertThat(McpHarness.text(call)).isEqualTo("CIRCUIT_OPEN: db is unavailable, retry after 300 s");
        assertThat(harness.metrics()).contains(
                "agentfuse_mcp_tool_calls_total{outcome=\"server_circuit_open\",server=\"db\",tool=\"a\"} 1.0");
    }

    @Test
    void aNonIdempotentToolIsNotRetriedAndAnIdempotentOneIs() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("insert_row", "Writes"), McpMockTool.of("query", "Reads").idempotent(true));
        String session = harness.initialize();
        harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session);
        harness.mcp.script("insert_row", McpToolStep.httpStatus(503, 1));
        harness.mcp.script("query", McpToolStep.httpStatus(503, 1));

        HttpResponse<String> write = harness.post(harness.toolCall("insert_row"), "Mcp-Session-Id", session);
        HttpResponse<String> read = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        assertThat(write.statusCode()).isEqualTo(503);
        assertThat(harness.mcp.calls("insert_row")).isEqualTo(1);
        assertThat(McpHarness.text(read)).isEqualTo("ok");
        assertThat(harness.mcp.calls("query")).isEqualTo(2);
    }

    @Test
    void explicitRetriesInTheToolsEntryRetryEvenAToolNotMarkedIdempotent() {
        harness = McpHarness.start(McpHarness.CONFIG + "tools:\n  insert_row: { retries: 1 }\n");
        harness.mcp.tools(McpMockTool.of("insert_row", "Writes"));
        String session = harness.initialize();
        harness.mcp.script("insert_row", McpToolStep.httpStatus(503, 1));

        HttpResponse<String> write = harness.post(harness.toolCall("insert_row"), "Mcp-Session-Id", session);

        assertThat(McpHarness.text(write)).isEqualTo("ok");
        assertThat(harness.mcp.calls("insert_row")).isEqualTo(2);
    }

    @Test
    void toolCallsAreCountedByServerToolAndOutcome() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("flaky", "Fails"));
        String session = harness.initialize();
        harness.mcp.script("flaky", McpToolStep.toolError("down", 1));
        harness.post(harness.toolCall("flaky"), "Mcp-Session-Id", session);
        harness.post(harness.toolCall("flaky"), "Mcp-Session-Id", session);

        String metrics = harness.metrics();

        assertThat(metrics).contains("agentfuse_mcp_tool_calls_total{outcome=\"is_error\",server=\"db\",tool=\"flaky\"} 1.0");
        assertThat(metrics).contains("agentfuse_mcp_tool_calls_total{outcome=\"success\",server=\"db\",tool=\"flaky\"} 1.0");
    }

    @Test
    void theAdminApiListsTheToolAndServerBreakers() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Reads"));
        String session = harness.initialize();
        harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        String breakers = harness.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(harness.gateway.baseUrl() + "/admin/breakers")).build()).body();

        JsonArray list = new JsonObject(breakers).getJsonArray("breakers");
        assertThat(list.stream().map(entry -> ((JsonObject) entry).getString("name")))
                .contains("mcp:db", "tool:db/query");
    }
}
