package io.agentfuse.gateway.mcp;

import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code tools/call} past its tool's {@code timeout} is cancelled on the server before the agent
 * sees it fail: the server gets {@code notifications/cancelled} with the call's request id, in the
 * call's session, and the agent a result with {@code isError: true} that says so.
 */
class McpToolTimeoutCancelTest {

    private McpHarness harness;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG + "tools:\n  slow: { timeout: 1s }\n");
        harness.mcp.tools(McpMockTool.of("slow", "Takes its time"));
        // far longer than the tool's timeout: the answer would come long after the test ends
        harness.mcp.script("slow", McpToolStep.builder().text("late").delayMs(120_000).build());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aCallPastItsTimeoutIsCancelledOnTheServerBeforeItFails() {
        String session = harness.initialize();
        JsonObject call = harness.toolCall("slow");

        HttpResponse<String> answer = harness.post(call, "Mcp-Session-Id", session);

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(McpHarness.result(answer).getBoolean("isError")).isTrue();
        assertThat(McpHarness.text(answer)).isEqualTo("TIMEOUT: slow did not answer within 1 s; the call was cancelled");
        // already there when the agent got its answer
        List<JsonObject> cancelled = harness.mcp.notifications("notifications/cancelled");
        assertThat(cancelled).singleElement().satisfies(notification -> {
            assertThat(notification.getJsonObject("params").getValue("requestId")).isEqualTo(call.getValue("id"));
            assertThat(notification.getJsonObject("params").getString("reason")).startsWith("timeout");
        });
        assertThat(harness.mcp.requests()).filteredOn(request -> request.body().contains("notifications/cancelled"))
                .singleElement().satisfies(request -> assertThat(request.header("mcp-session-id")).contains(session));
    }

    @Test
    void inTheStatelessEraTheCancellationCarriesTheEraHeaders() {
        JsonObject call = harness.toolCall("slow");

        harness.post(call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "slow");

        assertThat(harness.mcp.requests()).filteredOn(request -> request.body().contains("notifications/cancelled"))
                .singleElement().satisfies(request -> {
                    assertThat(request.header("mcp-method")).contains("notifications/cancelled");
                    assertThat(request.header("mcp-name")).isEmpty();
                    assertThat(request.header("mcp-protocol-version")).contains("2026-07-28");
                });
    }
}
