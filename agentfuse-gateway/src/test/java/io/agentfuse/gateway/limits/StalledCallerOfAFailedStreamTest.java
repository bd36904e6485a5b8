package io.agentfuse.gateway.limits;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.HostileUpstream;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream the gateway ends itself (here a subagent's deadline) while its caller has stopped
 * reading: the error event can never be written, and the caller is cut off after
 * {@code server.clientWriteTimeout} like any stalled caller — not only when the connection's own
 * timeouts ({@code headerTimeout}, {@code idleTimeout}: minutes here) end it. Regression: the
 * relay waited for the error event's write before closing, and that write never completes.
 */
class StalledCallerOfAFailedStreamTest {

    private static final String CONFIG = """
            server:
              port: 0
              headerTimeout: 10m
              idleTimeout: 10m
              clientWriteTimeout: 2s
            providers:
              hostile: { type: openai, baseUrl: "http://127.0.0.1:${HOSTILE_PORT}/v1", apiKey: "sk-hostile" }
            retry:
              maxAttempts: 1
            subagents:
              defaultTimeout: 1s
            models:
              big-stream: { provider: hostile, timeout: 60s }
            """;

    private final Vertx vertx = GatewayVertx.create();
    private HostileUpstream upstream;
    private GatewayServer gateway;
    private RawSocket caller;

    @AfterEach
    void stop() {
        if (caller != null) {
            caller.close();
        }
        try {
            if (gateway != null) {
                Await.result(gateway.close());
            }
        } finally {
            Await.result(vertx.close());
        }
    }

    @Test
    void givenACallerThatStoppedReading_whenTheGatewayEndsItsStream_thenTheCallerIsCutOffWithoutReadingOn() {
        upstream = Await.result(HostileUpstream.start(vertx));
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "test.yaml",
                Map.of("HOSTILE_PORT", Integer.toString(upstream.port())));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        caller = RawSocket.open(gateway.port(), 4096);
        String body = new JsonObject().put("model", "big-stream").put("stream", true)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))).encode();
        caller.send("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "x-agentfuse-subagent: reader-1\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length
                + "\r\n\r\n" + body);

        // The caller reads nothing: the exchange ends (and is counted) only when the gateway lets the connection go.
        Eventually.holds(vertx, () -> requestsCounted() == 1);

        assertThat(caller.closedWithin(Duration.ofSeconds(30))).isTrue();
    }

    /** Model requests the gateway has finished with, by its metrics. */
    private long requestsCounted() {
        return gateway.metrics().scrape().lines().filter(line -> line.startsWith("agentfuse_requests_total{"))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
