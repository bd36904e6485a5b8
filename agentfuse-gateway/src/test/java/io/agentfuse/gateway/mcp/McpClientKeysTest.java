package io.agentfuse.gateway.mcp;

import io.agentfuse.mock.mcp.McpMockTool;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code clients:}, the MCP proxy needs a client key like the model endpoints, and an MCP
 * session belongs to the client whose key opened it, whichever header carries the key.
 */
class McpClientKeysTest {

    private McpHarness harness;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG + """
                clients:
                  alice: { key: "sk-alice-0123456789" }
                  mallory: { key: "sk-mallory-0123456789" }
                """);
        harness.mcp.tools(McpMockTool.of("query", "Runs SQL"));
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    private String initialize(String... headers) {
        return harness.post(harness.rpc("initialize", new JsonObject().put("protocolVersion", "2025-11-25")
                        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "a").put("version", "1"))),
                headers).headers().firstValue("mcp-session-id").orElseThrow();
    }

    @Test
    void aRequestWithoutAKeyIsAJsonRpcErrorThatReachesNoServer() {
        HttpResponse<String> answer = harness.post(harness.toolCall("query"));

        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(McpHarness.message(answer).getJsonObject("error").getJsonObject("data").getString("type"))
                .isEqualTo("invalid_api_key");
        assertThat(harness.mcp.requests()).isEmpty();
    }

    /**
     * Regression: the key was checked on the path as written, the route matched on the path as the
     * router reads it, so {@code //mcp/db} opened sessions and called tools without any key.
     */
    @ParameterizedTest
    @ValueSource(strings = {"//mcp/db", "/%6dcp/db", "/x/../mcp/db", "/mcp//db"})
    void aPathWrittenAnotherWayNeedsTheKeyToo(String path) {
        HttpResponse<String> answer = harness.post(path, harness.toolCall("query"));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
        assertThat(harness.mcp.requests()).isEmpty();
    }

    /**
     * Every key may use every MCP server (docs/design.md §11), so a caller with one is told which are
     * configured; a caller without one learns nothing of them: the key is checked first.
     */
    @Test
    void anUnknownServerIsNamedWithTheConfiguredOnesOnlyToACallerWithAKey() {
        HttpResponse<String> keyless = harness.post("/mcp/nosuch", harness.toolCall("query"));
        HttpResponse<String> client = harness.post("/mcp/nosuch", harness.toolCall("query"), "x-api-key", "sk-alice-0123456789");

        assertThat(keyless.statusCode()).isEqualTo(401);
        assertThat(keyless.body()).doesNotContain("db", "nosuch");
        assertThat(client.statusCode()).as("a JSON-RPC error for the request (McpUnknownServerSdkTest)").isEqualTo(200);
        assertThat(client.body()).contains("no MCP server named nosuch is configured (mcpServers: [db])");
    }

    @Test
    void aSessionBelongsToTheClientWhicheverHeaderCarriesItsKey() {
        String session = initialize("Authorization", "Bearer sk-alice-0123456789");

        HttpResponse<String> sameClient = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session,
                "x-api-key", "sk-alice-0123456789");
        HttpResponse<String> otherClient = harness.post(harness.toolCall("query"), "Mcp-Session-Id", session,
                "x-api-key", "sk-mallory-0123456789");

        assertThat(McpHarness.text(sameClient)).isEqualTo("ok");
        assertThat(otherClient.statusCode()).isEqualTo(404);
    }
}
