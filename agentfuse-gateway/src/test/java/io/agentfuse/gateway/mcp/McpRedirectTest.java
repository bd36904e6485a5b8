package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An MCP server whose address moved answers with a redirect: the proxy follows none and relays none
 * (either would send the caller's session, or the caller itself, past the proxy to the address the
 * answer names). Every request gets the proxy's 502 naming the redirect, and the server's breaker
 * counts it as the transport's failure.
 */
class McpRedirectTest {

    private static final String CONFIG = """
            server: { port: 0 }
            mcpServers:
              db:
                url: "${MCP_URL}"
                timeout: 5s
                circuitBreaker: { failureThreshold: 5, resetTimeout: 5m, halfOpenRequests: 1 }
            """;
    private static final String MOVED_TO = "http://10.1.2.3:9000/mcp";

    private HandWrittenMcpServer server;
    private McpHarness harness;

    @AfterEach
    void stop() {
        harness.close();
        server.close();
    }

    @Test
    void aRedirectOfAnyRequestIsTheServersFailureAndNeverReachesTheCaller() {
        // Given a server that answers every request with 307 to its new address
        server = HandWrittenMcpServer.start((request, message) -> redirect(request)).otherMethods(McpRedirectTest::redirect);
        harness = McpHarness.start(CONFIG, server.url());

        // When a caller opens a session, lists and calls a tool, and opens the GET stream
        List<HttpResponse<String>> answers = List.of(
                harness.post(harness.rpc("initialize", new JsonObject().put("protocolVersion", "2025-11-25"))),
                harness.post(harness.rpc("tools/list", new JsonObject())),
                harness.post(harness.toolCall("query")),
                harness.send(HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                        .timeout(Duration.ofSeconds(20)).header("accept", "text/event-stream").GET().build()));

        // Then each is the proxy's 502, naming the redirect, with no Location to follow
        for (HttpResponse<String> answer : answers) {
            assertThat(answer.statusCode()).as(answer.request().method()).isEqualTo(502);
            assertThat(answer.headers().firstValue("location")).isEmpty();
            JsonObject error = new JsonObject(answer.body()).getJsonObject("error");
            assertThat(error.getJsonObject("data").getString("type")).isEqualTo("upstream_unreachable");
            assertThat(error.getString("message"))
                    .contains("answered HTTP 307, a redirect to '" + MOVED_TO + "', not followed: is its url current?");
        }
        // and the server's breaker counted four failures of its transport
        assertThat(harness.breaker("mcp:db").map(CircuitBreaker::snapshot).orElseThrow().counts())
                .containsEntry("consecutiveErrors", 4L);
    }

    private static void redirect(HttpServerRequest request) {
        request.response().setStatusCode(307).putHeader("location", MOVED_TO).end();
    }
}
