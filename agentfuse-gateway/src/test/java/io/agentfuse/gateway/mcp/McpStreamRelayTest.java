package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.mock.RecordedRequest;
import io.agentfuse.mock.mcp.McpMockTool;
import io.agentfuse.mock.mcp.McpToolStep;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 2025-11-25 streams through the proxy: the {@code GET} stream relays the server's messages as
 * they come, resumes after {@code Last-Event-ID}, {@code DELETE} ends the session, and a client
 * that leaves cancels its call on the server.
 */
class McpStreamRelayTest {

    private McpHarness harness;
    private String session;

    @BeforeEach
    void start() {
        harness = McpHarness.start(McpHarness.CONFIG);
        harness.mcp.tools(McpMockTool.of("slow", "Takes its time"));
        session = harness.initialize();
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void theGetStreamRelaysServerMessagesAsTheyCome() throws Exception {
        CompletableFuture<HttpResponse<Stream<String>>> stream = openStream(null);
        Eventually.holds(harness.vertx, () -> harness.mcp.openStreams() == 1);
        HttpResponse<Stream<String>> response = stream.get(30, TimeUnit.SECONDS);

        harness.mcp.notifySessions(notification("notifications/tools/list_changed"));

        String data = response.body().filter(line -> line.startsWith("data:")).findFirst().orElseThrow();
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("text/event-stream"));
        assertThat(new JsonObject(data.substring(5).trim()).getString("method")).isEqualTo("notifications/tools/list_changed");
    }

    @Test
    void aResumedStreamStartsAfterTheLastEventIdSeen() throws Exception {
        harness.mcp.notifySessions(notification("notifications/first"));
        harness.mcp.notifySessions(notification("notifications/second"));

        HttpResponse<Stream<String>> response = openStream("1").get(30, TimeUnit.SECONDS);

        List<String> firstEvent = response.body().takeWhile(line -> !line.isEmpty()).toList();
        assertThat(firstEvent).contains("id: 2");
        assertThat(firstEvent).anySatisfy(line -> assertThat(line).contains("notifications/second"));
        assertThat(harness.mcp.requests()).last().satisfies(request ->
                assertThat(request.header("last-event-id")).contains("1"));
    }

    @Test
    void deleteEndsTheSessionOnTheServer() {
        HttpResponse<String> deleted = harness.send(HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("Mcp-Session-Id", session).DELETE().build());

        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(harness.mcp.sessions()).isEmpty();
    }

    @Test
    void aClientThatDisconnectsCancelsTheCallOnTheServer() {
        // Given a tool call the server will take long to answer
        harness.mcp.script("slow", McpToolStep.builder().delayMs(60_000).build());
        String body = harness.toolCall("slow").encode();
        NetSocket socket = Await.result(harness.vertx.createNetClient().connect(harness.gateway.port(), "127.0.0.1"));
        Await.result(socket.write("POST /mcp/db HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body));
        Eventually.holds(harness.vertx, () -> harness.mcp.calls("slow") == 1);

        // When the client goes away
        Await.result(socket.close());

        // Then the proxy closes its call to the server
        Eventually.holds(harness.vertx, () -> slowCall().clientDisconnected());
    }

    private RecordedRequest slowCall() {
        return harness.mcp.requests().stream().filter(request -> request.body().contains("\"slow\"")).findFirst().orElseThrow();
    }

    private CompletableFuture<HttpResponse<Stream<String>>> openStream(String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(harness.gateway.baseUrl() + "/mcp/db"))
                .header("accept", "text/event-stream").header("Mcp-Session-Id", session).GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        return harness.http().sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines());
    }

    private static JsonObject notification(String method) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", method);
    }
}
