package io.agentfuse.gateway.mcp;

import io.agentfuse.mock.mcp.McpMockTool;
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
 * An MCP session belongs to the caller whose {@code initialize} opened it: another caller can
 * neither use it nor end it, and learns nothing of it (the answer is the one for an unknown session).
 */
class McpSessionOwnershipTest {

    private static final String ALICE = "Bearer alice-key";
    private static final String MALLORY = "Bearer mallory-key";

    private McpHarness harness;
    private String aliceSession;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("query", "Runs SQL"));
        aliceSession = harness.post(harness.rpc("initialize", new JsonObject().put("protocolVersion", "2025-11-25")
                        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "a").put("version", "1"))),
                "Authorization", ALICE).headers().firstValue("mcp-session-id").orElseThrow();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void anotherCallerCannotUseTheSession() {
        int before = harness.mcp.requests().size();

        HttpResponse<String> answer = harness.post(harness.toolCall("query"), "Mcp-Session-Id", aliceSession,
                "Authorization", MALLORY);

        assertThat(answer.statusCode()).isEqualTo(404);
        assertThat(McpHarness.message(answer).getJsonObject("error").getString("message")).startsWith("unknown session")
                .doesNotContain(aliceSession);
        assertThat(harness.mcp.requests()).hasSize(before);
    }

    @Test
    void anotherCallerCannotEndTheSessionOrOpenItsStream() {
        HttpResponse<String> delete = harness.send(request("DELETE", MALLORY).build());
        HttpResponse<String> stream = harness.send(request("GET", MALLORY).header("accept", "text/event-stream").build());

        assertThat(delete.statusCode()).isEqualTo(404);
        assertThat(stream.statusCode()).isEqualTo(404);
        assertThat(harness.mcp.sessions()).containsExactly(aliceSession);
    }

    @Test
    void aSessionHeaderSentTwiceIsRefusedOnEveryMethod() {
        // Given Mallory's own session
        String mallorySession = harness.post(harness.rpc("initialize", new JsonObject()), "Authorization", MALLORY)
                .headers().firstValue("mcp-session-id").orElseThrow();
        int before = harness.mcp.requests().size();

        // When Mallory sends its own session id first and Alice's second
        HttpResponse<String> call = harness.post(harness.toolCall("query"), "Mcp-Session-Id", mallorySession,
                "Mcp-Session-Id", aliceSession, "Authorization", MALLORY);
        HttpResponse<String> stream = harness.send(request("GET", MALLORY).header("Mcp-Session-Id", mallorySession)
                .header("accept", "text/event-stream").build());

        // Then both are refused as invalid, and neither reaches the server
        assertThat(call.statusCode()).isEqualTo(400);
        assertThat(McpHarness.message(call).getJsonObject("error").getInteger("code")).isEqualTo(-32600);
        assertThat(stream.statusCode()).isEqualTo(400);
        assertThat(harness.mcp.requests()).hasSize(before);
    }

    @Test
    void theCallerWhoOpenedItUsesAndEndsIt() {
        HttpResponse<String> call = harness.post(harness.toolCall("query"), "Mcp-Session-Id", aliceSession,
                "Authorization", ALICE);
        HttpResponse<String> delete = harness.send(request("DELETE", ALICE).build());
        HttpResponse<String> after = harness.post(harness.toolCall("query"), "Mcp-Session-Id", aliceSession,
                "Authorization", ALICE);

        assertThat(McpHarness.text(call)).isEqualTo("ok");
        assertThat(delete.statusCode()).isEqualTo(200);
        assertThat(harness.mcp.sessions()).isEmpty();
        assertThat(after.statusCode()).isEqualTo(404);
    }

    @Test
    void aSessionIdTheProxyNeverHandedOutIsUnknown() {
        HttpResponse<String> answer = harness.post(harness.toolCall("query"), "Mcp-Session-Id", "guessed", "Authorization", ALICE);

        assertThat(answer.statusCode()).isEqualTo(404);
    }

    private HttpRequest.Builder request(String method, String authorization) {
        return HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .timeout(Duration.ofSeconds(30))
                .header("Mcp-Session-Id", aliceSession)
                .header("Authorization", authorization)
                .method(method, HttpRequest.BodyPublishers.noBody());
    }
}
