package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay's limits, between a real streaming server and a real client on loopback: a client
 * that stops reading is cut off after the write timeout and a server that goes quiet after the
 * idle timeout; either way the server's connection is closed, so it is not held.
 */
class McpRelayTest {

    private final Vertx vertx = GatewayVertx.create();
    private final AtomicBoolean upstreamClosed = new AtomicBoolean();
    private McpUpstream upstream;
    private HttpServer server;

    @BeforeEach
    void start() {
        upstream = new McpUpstream(vertx, McpProxyOptions.defaults());
    }

    @AfterEach
    void stop() {
        Await.result(upstream.close());
        Await.result(vertx.close());
    }

    @Test
    void aClientThatStopsReadingIsCutOffAndTheServersConnectionClosed() {
        // Given a server that streams without end, and a relay with a short write timeout
        HttpServer flood = streamingServer(true);
        HttpServer proxy = relayServer(flood.actualPort(), Duration.ofMillis(200), null);

        // When a client asks for the stream and never reads it
        NetSocket client = connect(proxy.actualPort());
        client.pause();

        // Then the relay gives up on the stalled client and closes the server's connection
        Eventually.holds(vertx, upstreamClosed::get);
        client.close();
    }

    @Test
    void aServerThatGoesQuietIsCutOffAfterTheIdleTimeout() {
        HttpServer quiet = streamingServer(false);
        HttpServer proxy = relayServer(quiet.actualPort(), Duration.ofSeconds(30), Duration.ofMillis(100));
        AtomicBoolean clientClosed = new AtomicBoolean();

        NetSocket client = connect(proxy.actualPort());
        client.closeHandler(v -> clientClosed.set(true));

        Eventually.holds(vertx, () -> upstreamClosed.get() && clientClosed.get());
    }

    /** A server whose SSE stream floods 64 KiB chunks ({@code flood}) or sends one event and goes quiet. */
    private HttpServer streamingServer(boolean flood) {
        server = Await.result(vertx.createHttpServer().requestHandler(request -> {
            var response = request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            response.closeHandler(v -> upstreamClosed.set(true));
            response.write("data: {}\n\n");
            if (flood) {
                Buffer chunk = Buffer.buffer("data: " + "x".repeat(64 * 1024) + "\n\n");
                vertx.setPeriodic(1, id -> {
                    if (response.closed()) {
                        vertx.cancelTimer(id);
                    } else if (!response.writeQueueFull()) {
                        response.write(chunk);
                    }
                });
            }
        }).listen(0, "127.0.0.1"));
        return server;
    }

    private HttpServer relayServer(int upstreamPort, Duration writeTimeout, Duration idleTimeout) {
        URI url = URI.create("http://127.0.0.1:" + upstreamPort + "/mcp");
        return Await.result(vertx.createHttpServer().requestHandler(request ->
                upstream.open(url, HttpMethod.GET, MultiMap.caseInsensitiveMultiMap(), null, Duration.ofSeconds(5))
                        .onSuccess(streamed -> new McpRelay(vertx, streamed, request.response(), request.connection(), writeTimeout,
                                idleTimeout).start()))
                .listen(0, "127.0.0.1"));
    }

    private NetSocket connect(int port) {
        NetSocket socket = Await.result(vertx.createNetClient().connect(port, "127.0.0.1"));
        socket.handler(buffer -> { });
        Await.result(socket.write("GET /mcp/db HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"));
        return socket;
    }
}
