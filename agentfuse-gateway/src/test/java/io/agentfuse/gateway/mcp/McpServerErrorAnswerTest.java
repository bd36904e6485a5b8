package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tool server that answers HTTP 500 trips the server's breaker too; from then on a
 * {@code tools/call} gets a tool result the agent's model can read ({@code isError},
 * {@code CIRCUIT_OPEN: <server> ...}), and only other methods get the JSON-RPC error {@code -32000}.
 */
class McpServerErrorAnswerTest {

    private McpHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void theFourthCallAfterThree500sIsACircuitOpenToolResult() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Runs SQL"));
        String session = harness.initialize();
        harness.mcp.defaultStep("query", McpToolStep.httpStatus(500, 1));
        for (int i = 0; i < 3; i++) {
            assertThat(harness.post(harness.toolCall("query"), "Mcp-Session-Id", session).statusCode()).isEqualTo(500);
        }
        assertThat(harness.breaker("mcp:db").orElseThrow().state()).isEqualTo(CircuitState.OPEN);

        HttpResponse<String> fourth = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        assertThat(fourth.statusCode()).isEqualTo(200);
        JsonObject result = McpHarness.result(fourth);
        assertThat(result.getBoolean("isError")).isTrue();
        assertThat(McpHarness.text(fourth)).isEqualTo("CIRCUIT_OPEN: db is unavailable, retry after 300 s");
        assertThat(harness.mcp.calls("query")).isEqualTo(3);

        HttpResponse<String> list = harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session);
        assertThat(McpHarness.message(list).getJsonObject("error").getInteger("code")).isEqualTo(-32000);
    }
}
