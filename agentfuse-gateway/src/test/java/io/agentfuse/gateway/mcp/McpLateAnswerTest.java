package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy settles the server breaker's permit it took for a request: an answer that arrives
 * after the breaker moved on (an operator reset it while the call was in flight) is not counted
 * against the new state.
 */
class McpLateAnswerTest {

    private McpHarness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aServerErrorThatArrivesAfterAResetIsNotCountedByTheServerBreaker() {
        // Given a tool whose server answers HTTP 500, slowly
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("slow", "Slow"));
        String session = harness.initialize();
        harness.mcp.script("slow", McpToolStep.builder().status(500).delayMs(3_000).build());
        CircuitBreaker server = harness.breaker("mcp:db").orElseThrow();

        // When the call is in flight and an operator resets the server breaker
        Future<HttpResponse<String>> answer = harness.vertx.executeBlocking(() ->
                harness.post(harness.toolCall("slow"), "Mcp-Session-Id", session));
        Eventually.holds(harness.vertx, () -> harness.mcp.calls("slow") == 1);
        server.reset();
        HttpResponse<String> reply = Await.result(answer);

        // Then the late 500 is relayed and counts for the tool, but not for the reset server breaker
        assertThat(reply.statusCode()).isEqualTo(500);
        assertThat(harness.breaker("tool:db/slow").orElseThrow().snapshot().counts()).containsEntry("consecutiveErrors", 1L);
        assertThat(server.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
    }
}
