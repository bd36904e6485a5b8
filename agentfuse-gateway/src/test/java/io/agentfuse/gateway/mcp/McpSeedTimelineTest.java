package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's worked example, played through the proxy on the breakers' manual clock: an MCP
 * server in front of a database starts answering 500. The 1st and 2nd failures are retried, the
 * 3rd trips the breaker; calls then fail fast without reaching the server; after 5 minutes one
 * probe goes through; success closes the breaker, failure keeps it open 5 more minutes.
 */
class McpSeedTimelineTest {

    private McpHarness harness;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Runs a read-only SQL query").idempotent(true));
        // the proxy learns that query is idempotent, so the server's retries apply to it
        harness.post(harness.rpc("tools/list", new io.vertx.core.json.JsonObject()), "Mcp-Session-Id", harness.initialize());
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void failsRetriesTripsOnTheThirdFailureThenFailsFastWithoutReachingTheServer() {
        // Given a database behind the MCP server that answers 500
        harness.mcp.script("query", McpToolStep.httpStatus(500, 3));
        String session = harness.mcp.sessions().get(0);

        // When the agent calls the tool once
        HttpResponse<String> first = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        // Then failures 1 and 2 were retried, the 3rd tripped the breaker, and the last answer is relayed
        assertThat(harness.mcp.calls("query")).isEqualTo(3);
        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(harness.breaker("tool:db/query").orElseThrow().state()).isEqualTo(CircuitState.OPEN);

        // When it calls again, the proxy answers at once: the seed's "database temporarily unavailable"
        HttpResponse<String> fastFail = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);
        assertThat(McpHarness.result(fastFail).getBoolean("isError")).isTrue();
        assertThat(McpHarness.text(fastFail)).isEqualTo("CIRCUIT_OPEN: query is unavailable, retry after 300 s");
        assertThat(harness.mcp.calls("query")).isEqualTo(3);
    }

    @Test
    void afterFiveMinutesOneProbeGoesThroughAndItsSuccessCloses() {
        String session = tripped();

        // Given 5 minutes later
        harness.clock.advance(Duration.ofMinutes(5));

        // When the agent calls the tool, the probe reaches the healthy server
        HttpResponse<String> probe = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        // Then the breaker closes and calls flow again
        assertThat(McpHarness.text(probe)).isEqualTo("ok");
        assertThat(harness.breaker("tool:db/query").orElseThrow().state()).isEqualTo(CircuitState.CLOSED);
        assertThat(harness.mcp.calls("query")).isEqualTo(4);
        assertThat(McpHarness.text(harness.post(harness.toolCall("query"), "Mcp-Session-Id", session))).isEqualTo("ok");
    }

    @Test
    void aFailedProbeKeepsItOpenFiveMoreMinutes() {
        String session = tripped();
        harness.mcp.script("query", McpToolStep.httpStatus(500, 1));

        // Given 5 minutes later, a probe that fails
        harness.clock.advance(Duration.ofMinutes(5));
        harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);

        // Then the breaker is open again, for 5 more minutes, and the probe was the only call let through
        assertThat(harness.mcp.calls("query")).isEqualTo(4);
        assertThat(harness.breaker("tool:db/query").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        HttpResponse<String> fastFail = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);
        assertThat(McpHarness.text(fastFail)).isEqualTo("CIRCUIT_OPEN: query is unavailable, retry after 300 s");
        assertThat(harness.mcp.calls("query")).isEqualTo(4);

        // And after those 5 minutes, a successful probe closes it
        harness.clock.advance(Duration.ofMinutes(5));
        assertThat(McpHarness.text(harness.post(harness.toolCall("query"), "Mcp-Session-Id", session))).isEqualTo("ok");
        assertThat(harness.breaker("tool:db/query").orElseThrow().state()).isEqualTo(CircuitState.CLOSED);
    }

    /** Trips the breaker of query with three 500s in one call; returns the session. */
    private String tripped() {
        harness.mcp.script("query", McpToolStep.httpStatus(500, 3));
        String session = harness.mcp.sessions().get(0);
        harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);
        assertThat(harness.breaker("tool:db/query").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        return session;
    }
}
