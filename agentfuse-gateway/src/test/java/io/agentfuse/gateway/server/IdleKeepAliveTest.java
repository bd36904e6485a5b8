package io.agentfuse.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.gateway.testing.RawSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * {@code server.idleTimeout} counts from the end of the last answer, not from when the
 * connection's header timer next fires: with a header timeout of ten minutes and an idle timeout
 * of 300 ms, an idle keep-alive connection is closed (it was closed {@code headerTimeout} +
 * {@code idleTimeout} after its request, 105 s with the defaults instead of 75 s).
 */
class IdleKeepAliveTest {

    private static final Duration IDLE = Duration.ofMillis(300);
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String CONFIG = """
            server:
              port: 0
              headerTimeout: 10m
              idleTimeout: 300ms
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-oai-configured" }
            models:
              gpt-4o-mini: { provider: openai }
            """;

    private static GatewayHarness harness;

    @BeforeAll
    static void start() {
        harness = GatewayHarness.start(CONFIG);
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @Test
    void givenAnAnsweredRequestWhenTheConnectionStaysIdleThenItIsClosedAfterIdleTimeoutNotAfterHeaderTimeout() {
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            long sent = System.nanoTime();
            socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            assertThat(socket.read(BOUND).status()).isEqualTo(200);

            assertThat(socket.closedWithin(BOUND)).as("closed while idle, long before the header timeout").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("closed only after the idle time")
                    .isGreaterThanOrEqualTo(IDLE);
        }
    }

    @Test
    void givenAModelAnswerWhenTheConnectionStaysIdleThenItIsClosed() {
        String body = GatewayHarness.openAiRequest("gpt-4o-mini", false).encode();
        try (RawSocket socket = RawSocket.open(harness.gateway.port())) {
            long sent = System.nanoTime();
            socket.send(RawSocket.post("/v1/chat/completions", "127.0.0.1", body));
            assertThat(socket.read(BOUND).status()).isEqualTo(200);

            assertThat(socket.closedWithin(BOUND)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(IDLE);
        }
    }
}
