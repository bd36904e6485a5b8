package io.agentfuse.gateway.mcp;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call given up on a server that stopped reading lets go of its connection at once: the request's
 * unsent bytes are dropped, not left queued on a connection that would then stay open (with its
 * descriptor) until the server read them, and hold the gateway's stop.
 */
class McpStuckServerTest {

    private static final String CONFIG = """
            server: { port: 0 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 1s
            """;
    private static final int ARGUMENT_CHARS = 5_000_000;

    private SilentServer server;
    private McpHarness harness;

    @AfterEach
    void stop() throws Exception {
        harness.close();
        server.close();
    }

    @Test
    void aLargeCallToAServerThatStopsReadingIsCutWhenItTimesOut() throws Exception {
        // Given a server that accepts and reads nothing, behind a 1 s timeout
        server = SilentServer.withSmallBuffers();
        harness = McpHarness.start(CONFIG, server.url());

        // When a tool call of 5 MB times out
        JsonObject call = harness.rpc("tools/call", new JsonObject().put("name", "load")
                .put("arguments", new JsonObject().put("rows", "r".repeat(ARGUMENT_CHARS))));
        HttpResponse<String> answer = harness.post(call);

        // Then the caller has its answer, and the server's connection ends before the call's bytes
        // have all come: the gateway dropped the rest instead of waiting to write it
        assertThat(McpHarness.text(answer)).startsWith("TIMEOUT: load did not answer within 1 s");
        assertThat(server.bytesUntilTheFirstConnectionEnds(Duration.ofSeconds(20))).isLessThan(ARGUMENT_CHARS);
    }
}
