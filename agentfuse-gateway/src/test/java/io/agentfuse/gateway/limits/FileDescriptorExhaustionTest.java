package io.agentfuse.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A gateway whose process may open 400 files, offered 450 idle connections: it refuses what it
 * cannot hold, its acceptor survives, {@code /healthz} answers again once the connections close,
 * its descriptors and memory return near their baseline, and SIGTERM still stops it. The gateway
 * runs in a child process ({@code ulimit -n 400}), so that only it runs out.
 */
class FileDescriptorExhaustionTest {

    private static final String CONFIG = """
            server:
              port: 0
              eventLoops: 2
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-mock" }
            models:
              good: { provider: openai, upstreamModel: gpt-4o-mini }
            """;
    private static final Duration BOUND = Duration.ofSeconds(20);
    /** As in {@link IsolatedGateway}: the heap is fixed and in the baseline, so RSS only grows by native memory. */
    private static final long RSS_SLACK_KIB = 64L * 1024;

    private final Vertx vertx = GatewayVertx.create();
    private MockProvider mock;
    private ChildGatewayProcess child;

    @BeforeEach
    void startChild() {
        mock = Await.result(MockProvider.start(vertx, 0));
        Map<String, String> environment = new HashMap<>(IsolatedGateway.ENVIRONMENT);
        environment.put("MOCK_PORT", Integer.toString(mock.port()));
        child = ChildGatewayProcess.start(CONFIG, environment, IsolatedGateway.JVM_FLAGS, 400);
    }

    @AfterEach
    void stop() {
        child.close();
        Await.result(vertx.close());
    }

    @Test
    void survivesRunningOutOfFileDescriptors() throws Exception {
        int port = child.port();
        Eventually.holds(vertx, () -> healthz(port)); // a cold JVM on a busy machine may cut its first connections
        assertThat(chat(port)).isEqualTo(200);
        int baselineFds = child.fileDescriptors();
        long baselineRss = child.residentKib();

        List<RawSocket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 450; i++) {
                idle.add(RawSocket.open(port));
            }
            // It holds what it can and closes the rest at once; it does not die.
            List<RawSocket> refused = new ArrayList<>();
            Eventually.holds(vertx, () -> {
                idle.stream().filter(socket -> !refused.contains(socket))
                        .filter(socket -> socket.closedWithin(Duration.ofMillis(5))).forEach(refused::add);
                return refused.size() >= 50;
            });
            assertThat(child.isAlive()).isTrue();
        } finally {
            idle.forEach(RawSocket::close);
        }

        Eventually.holds(vertx, () -> healthz(port));
        Eventually.holds(vertx, () -> child.fileDescriptors() <= baselineFds + 20);
        assertThat(child.residentKib()).as("RSS in KiB (baseline %d)", baselineRss).isLessThan(baselineRss + RSS_SLACK_KIB);
        assertThat(chat(port)).isEqualTo(200);
        assertThat(child.log()).doesNotContain("NoClassDefFoundError").doesNotContain("OutOfMemoryError");

        assertThat(child.terminate(BOUND)).as("stopped by SIGTERM: " + child.log()).isTrue();
    }

    /** Whether {@code /healthz} answers 200 (on a busy machine, late is fine: this is no speed test). */
    private static boolean healthz(int port) {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            return socket.read(Duration.ofSeconds(10)).status() == 200;
        } catch (IllegalStateException refusedOrSlow) {
            return false;
        }
    }

    private static int chat(int port) {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send(RawSocket.post("/v1/chat/completions", "127.0.0.1",
                    "{\"model\": \"good\", \"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}"));
            return socket.read(BOUND).status();
        }
    }
}
