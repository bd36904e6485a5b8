package io.agentfuse.gateway.mcp;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.metrics.TransitionLog;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names a caller invents cannot grow the gateway's state or its logs, nor harm another caller: a
 * tool the server did not list shares one series per server and has no breaker, whatever its
 * name; the same holds before the server ever listed, beyond a small number of names; MCP server
 * paths make nothing at all; a name that would forge a log line never becomes part of a breaker's name.
 */
class McpBoundedStateTest {

    private McpHarness harness;

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void toolNamesTheServerDidNotListShareOneSeriesAndNoBreaker() {
        // Given a server that listed two tools
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Runs SQL"), McpMockTool.of("fetch", "Fetches"));
        String session = harness.initialize();
        harness.post(harness.rpc("tools/list", new JsonObject()), "Mcp-Session-Id", session);
        harness.post(harness.toolCall("query"), "Mcp-Session-Id", session);
        int metricsBefore = harness.metrics().length();

        // When a caller calls 1 000 tools with names of its own
        for (int i = 0; i < 1_000; i++) {
            harness.post(harness.toolCall("invented-" + i), "Mcp-Session-Id", session);
        }

        // Then they make no breaker, and /metrics grew by one series
        assertThat(toolBreakers()).containsExactly("tool:db/query");
        assertThat(harness.metrics().length()).isLessThan(metricsBefore + 8_000);
        // (the server refused each: with no shared breaker to open, each reached it)
        assertThat(harness.metrics()).contains(
                "agentfuse_mcp_tool_calls_total{outcome=\"rpc_error\",server=\"db\",tool=\"(unlisted)\"} 1000.0");
    }

    @Test
    void beforeAnyListOnlyAFewNamesGetABreakerOfTheirOwn() {
        harness = McpHarness.start(McpHarness.CONFIG);
        String session = harness.initialize();

        for (int i = 0; i < 200; i++) {
            harness.post(harness.toolCall("early-" + i), "Mcp-Session-Id", session);
        }

        assertThat(toolBreakers()).hasSize(ToolCatalog.PROVISIONAL_TOOLS).doesNotContain("tool:db/(unlisted)");
    }

    @Test
    void namesOneCallerInventsCannotOpenABreakerThatAnotherCallersRealToolHits() {
        // Given a server never listed through the proxy, a tool that fails and a healthy one
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("fail", "Fails"), McpMockTool.of("echo", "Echoes"));
        harness.mcp.defaultStep("fail", McpToolStep.toolError("nope", 1));
        String attacker = harness.initialize();
        String victim = harness.initialize();

        // When one caller fills the provisional names and fails the failing tool again and again
        for (int i = 0; i < ToolCatalog.PROVISIONAL_TOOLS; i++) {
            harness.post(harness.toolCall("invented-" + i), "Mcp-Session-Id", attacker);
        }
        for (int i = 0; i < 5; i++) {
            harness.post(harness.toolCall("fail"), "Mcp-Session-Id", attacker);
        }

        // Then another caller's healthy tool still answers
        HttpResponse<String> answer = harness.post(harness.toolCall("echo"), "Mcp-Session-Id", victim);
        assertThat(McpHarness.result(answer).getBoolean("isError")).isFalse();
        assertThat(harness.mcp.calls("echo")).isEqualTo(1);
    }

    @Test
    void requestsToServersThatAreNotConfiguredMakeNoStateAndNoSeries() {
        harness = McpHarness.start(McpHarness.CONFIG);
        int breakers = harness.gateway.runtime().registry().all().size();
        int metricsBefore = harness.metrics().length();

        for (int i = 0; i < 300; i++) {
            HttpResponse<String> answer = harness.post("/mcp/server-" + i, harness.toolCall("query"));
            assertThat(McpHarness.message(answer).getJsonObject("error").getJsonObject("data").getString("type"))
                    .isEqualTo("not_found");
        }

        assertThat(harness.gateway.runtime().registry().all()).hasSize(breakers);
        assertThat(harness.metrics().length()).isLessThan(metricsBefore + 2_000);
    }

    @Test
    void aToolNameWithANewlineNeverReachesABreakerNameOrALogLine() {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(TransitionLog.class);
        lines.start();
        logger.addAppender(lines);
        try {
            // Given a caller whose tool name carries a forged log line, and a server that fails it
            harness = McpHarness.start(McpHarness.CONFIG);
            harness.mcp.tools(McpMockTool.of("query", "Runs SQL"));
            String session = harness.initialize();
            String forged = "query\n2026-01-01 WARN TransitionLog breaker model:claude-sonnet-4 CLOSED -> FORCED_OPEN";

            // When it is called until a breaker opens
            for (int i = 0; i < 3; i++) {
                harness.post(harness.toolCall(forged), "Mcp-Session-Id", session);
            }

            // Then no breaker has the name (nor any breaker its share), and no log line carries it
            assertThat(toolBreakers()).isEmpty();
            assertThat(lines.list).allSatisfy(event ->
                    assertThat(event.getFormattedMessage()).doesNotContain("\n").doesNotContain("\r"));
            assertThat(harness.metrics()).contains(
                    "agentfuse_mcp_tool_calls_total{outcome=\"rpc_error\",server=\"db\",tool=\"(unlisted)\"} 3.0");
        } finally {
            logger.detachAppender(lines);
        }
    }

    private java.util.List<String> toolBreakers() {
        return harness.gateway.runtime().registry().all().stream().map(CircuitBreaker::name)
                .filter(name -> name.startsWith("tool:")).toList();
    }
}
