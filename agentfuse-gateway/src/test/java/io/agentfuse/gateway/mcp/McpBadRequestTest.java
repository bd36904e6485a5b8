package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitState;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests the proxy cannot route get a clear JSON answer, never an HTML page, and never reach the server. */
class McpBadRequestTest {

    private McpHarness harness;

    @BeforeEach
    void start() {
        harness = McpHarness.start("server: { maxBodySize: 1KB }\n" + McpHarness.CONFIG.replace("server: { port: 0 }\n", ""));
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void aBodyThatIsNotJsonRpcIsAParseError() {
        HttpResponse<String> answer = raw("POST", "not json");

        assertThat(answer.statusCode()).isEqualTo(400);
        JsonObject error = new JsonObject(answer.body()).getJsonObject("error");
        assertThat(error.getInteger("code")).isEqualTo(-32700);
        assertThat(error.getJsonObject("data").getString("type")).isEqualTo("invalid_request");
        assertThat(harness.mcp.requests()).isEmpty();
    }

    @Test
    void aBodyWithACommentOrAByteOrderMarkIsAParseErrorAsForEveryOtherRoute() {
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        for (String body : new String[] {"/* c */" + ping, "\uFEFF" + ping}) {
            HttpResponse<String> answer = raw("POST", body);

            assertThat(answer.statusCode()).isEqualTo(400);
            JsonObject error = new JsonObject(answer.body()).getJsonObject("error");
            assertThat(error.getInteger("code")).isEqualTo(-32700);
            assertThat(error.getString("message")).containsAnyOf("a comment, which JSON does not allow", "a byte order mark");
        }
        assertThat(harness.mcp.requests()).isEmpty();
    }

    @Test
    void aBodyOverTheLimitIsRequestTooLarge() {
        HttpResponse<String> answer = raw("POST", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"pad\":\"" + "x".repeat(2048) + "\"}");

        assertThat(answer.statusCode()).isEqualTo(413);
        assertThat(new JsonObject(answer.body()).getJsonObject("error").getString("type")).isEqualTo("request_too_large");
        assertThat(harness.mcp.requests()).isEmpty();
    }

    @Test
    void aMethodTheTransportDoesNotHaveIsAJson405() {
        HttpResponse<String> answer = raw("PUT", "{}");

        assertThat(answer.statusCode()).isEqualTo(405);
        assertThat(new JsonObject(answer.body()).getJsonObject("error").getString("type")).isEqualTo("invalid_request");
    }

    @Test
    void aToolsCallWithoutAnIdIsRefusedAndHeldAgainstNoBreaker() {
        // Given a session, and a caller that sends tools/call as notifications (no id)
        String session = harness.initialize();
        JsonObject notification = harness.toolCall("query");
        notification.remove("id");

        // When it sends three
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = harness.post(notification, "Mcp-Session-Id", session);

            // Then each is refused as an invalid request, without reaching the server
            assertThat(answer.statusCode()).isEqualTo(400);
            assertThat(new JsonObject(answer.body()).getJsonObject("error").getInteger("code")).isEqualTo(-32600);
        }
        assertThat(harness.mcp.calls("query")).isZero();
        // and the tool's breaker counted nothing: the tool did nothing wrong
        assertThat(harness.breaker("tool:db/query").map(breaker -> breaker.state()).orElse(CircuitState.CLOSED))
                .isEqualTo(CircuitState.CLOSED);
    }

    private HttpResponse<String> raw(String method, String body) {
        return harness.send(HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("content-type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
