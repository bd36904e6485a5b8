package io.agentfuse.gateway.mcp;

import io.agentfuse.config.ConfigLoader;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Regression: a request for an MCP server that is not configured was answered 404 with a plain
 * JSON body. The MCP Java SDK client reported it as a bare transport failure ("Server Not Found"),
 * and, for a request that carried a session id (a server removed by a reload), as "session not
 * found": the transport's rule makes a 404 mean an expired session. It is now a JSON-RPC error the
 * SDK hands to the request, with the gateway's words.
 */
class McpUnknownServerSdkTest {

    private final McpHarness harness = McpHarness.start(McpHarness.CONFIG);
    private final List<McpSyncClient> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        clients.forEach(McpSyncClient::close);
        harness.close();
    }

    private McpSyncClient client(String endpoint) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(harness.gateway.baseUrl())
                        .endpoint(endpoint).build())
                .requestTimeout(Duration.ofSeconds(20)).initializationTimeout(Duration.ofSeconds(20)).build();
        clients.add(client);
        return client;
    }

    /** The causes of {@code failure}, itself first. */
    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable cause = failure; cause != null && !chain.contains(cause); cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }

    private static McpError mcpError(Throwable failure) {
        return chain(failure).stream().filter(McpError.class::isInstance).map(McpError.class::cast).findFirst()
                .orElseThrow(() -> new AssertionError("no McpError in " + chain(failure)));
    }

    @Test
    void givenNoSuchServerWhenTheSdkClientInitializesThenItGetsTheGatewaysErrorAsTheServersError() {
        Throwable failure = catchThrowable(() -> client("/mcp/nosuch").initialize());

        assertThat(mcpError(failure).getMessage()).contains("no MCP server named nosuch is configured (mcpServers: [db])");
        assertThat(harness.mcp.requests()).isEmpty();
    }

    @Test
    void givenAServerRemovedByAReloadWhenTheSdkClientCallsInItsSessionThenItIsToldSoNotThatItsSessionExpired() {
        McpSyncClient client = client("/mcp/db");
        client.initialize();
        harness.gateway.runtime().reload(ConfigLoader.parse(McpHarness.CONFIG.replace("  db:", "  other:"), "test.yaml",
                Map.of("MCP_URL", harness.mcp.url())));

        Throwable failure = catchThrowable(client::listTools);

        assertThat(mcpError(failure).getMessage()).contains("no MCP server named db is configured (mcpServers: [other])");
        assertThat(chain(failure)).noneMatch(McpTransportSessionNotFoundException.class::isInstance);
    }

    @Test
    void givenNoSuchServerWhenANotificationOrTheStreamIsSentThenItIsA404WithAJsonRpcError() {
        HttpResponse<String> notification = harness.post("/mcp/nosuch", new JsonObject().put("jsonrpc", "2.0")
                .put("method", "notifications/initialized"));

        HttpResponse<String> stream = harness.send(HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/nosuch"))
                .header("accept", "text/event-stream").GET().build());

        for (HttpResponse<String> answer : List.of(notification, stream)) {
            assertThat(answer.statusCode()).isEqualTo(404);
            JsonObject error = new JsonObject(answer.body()).getJsonObject("error");
            assertThat(error.getString("message")).contains("no MCP server named nosuch");
            assertThat(error.getJsonObject("data").getString("type")).isEqualTo("not_found");
        }
    }
}
