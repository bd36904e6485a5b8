package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's {@code tools:} block, verbatim, drives the proxy's breakers of an MCP server's tools:
 * {@code web_search} retries twice (its entry says so) and opens on the 5th failure for 5 minutes,
 * {@code browser} (not idempotent, no retries of its own) opens on the 3rd call for 10 minutes.
 */
class McpSeedToolsSnippetTest {

    private static final String SERVER = """
            server: { port: 0 }
            retry: { maxAttempts: 1, initialDelay: 10ms, maxDelay: 1s }
            mcpServers:
              search:
                url: "${MCP_URL}"
                circuitBreaker: { failureThreshold: 50 }
            """;

    private McpHarness harness;
    private String session;

    @BeforeEach
    void start() {
        harness = McpHarness.start(SERVER + seedTools());
        harness.mcp.tools(McpMockTool.of("web_search", "Searches the web"), McpMockTool.of("browser", "Opens a page"));
        session = harness.initialize("/mcp/search");
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void webSearchRetriesAsItsEntrySaysAndOpensOnTheFifthFailure() {
        harness.mcp.script("web_search", McpToolStep.httpStatus(500, 10));

        harness.post("/mcp/search", harness.toolCall("web_search"), "Mcp-Session-Id", session);
        assertThat(harness.mcp.calls("web_search")).isEqualTo(3);
        harness.post("/mcp/search", harness.toolCall("web_search"), "Mcp-Session-Id", session);

        assertThat(harness.mcp.calls("web_search")).isEqualTo(5);
        assertThat(harness.breaker("tool:search/web_search").orElseThrow().state()).isEqualTo(CircuitState.OPEN);
        assertThat(McpHarness.text(harness.post("/mcp/search", harness.toolCall("web_search"), "Mcp-Session-Id", session)))
                .isEqualTo("CIRCUIT_OPEN: web_search is unavailable, retry after 300 s");
    }

    @Test
    void browserOpensOnTheThirdFailedCallForTenMinutes() {
        harness.mcp.script("browser", McpToolStep.httpStatus(500, 10));
        for (int i = 0; i < 3; i++) {
            harness.post("/mcp/search", harness.toolCall("browser"), "Mcp-Session-Id", session);
        }

        assertThat(harness.mcp.calls("browser")).isEqualTo(3);
        assertThat(McpHarness.text(harness.post("/mcp/search", harness.toolCall("browser"), "Mcp-Session-Id", session)))
                .isEqualTo("CIRCUIT_OPEN: browser is unavailable, retry after 600 s");
    }

    @Test
    void theSnippetsToolBreakersAreListedBeforeAnyCall() {
        assertThat(harness.breaker("tool:search/web_search")).isPresent();
        assertThat(harness.breaker("tool:search/browser")).isPresent();
        assertThat(harness.breaker("mcp:search")).isPresent();
    }

    private static String seedTools() {
        try (InputStream in = McpSeedToolsSnippetTest.class.getResourceAsStream("/seed-tools.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
