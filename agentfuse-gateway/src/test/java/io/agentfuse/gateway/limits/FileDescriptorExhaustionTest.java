package io.agentfuse.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.ProcessProbe;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

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
    private static final long RSS_SLACK_KIB = 128L * 1024;

    @TempDir
    Path directory;

    private final Vertx vertx = Vertx.vertx();
    private Process child;
    private Path output;

    @BeforeEach
    void startChild() throws IOException {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), CONFIG);
        output = directory.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        child = new ProcessBuilder("bash", "-c", "ulimit -n 400 && exec \"$0\" -Xmx256m -cp \"$1\" " + ChildGateway.class.getName() + " \"$2\"",
                java, classpath, config.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    @AfterEach
    void stop() {
        if (child.isAlive()) {
            child.destroyForcibly();
        }
        Await.result(vertx.close());
    }

    @Test
    void survivesRunningOutOfFileDescriptors() throws Exception {
        Eventually.holds(vertx, () -> port().isPresent() || !child.isAlive());
        int port = port().orElseThrow(() -> new AssertionError("the child did not start: " + log()));
        assertThat(healthz(port)).isTrue();
        assertThat(chat(port)).isEqualTo(200);
        int baselineFds = ProcessProbe.fileDescriptors(child.pid());
        long baselineRss = ProcessProbe.residentKib(child.pid());

        List<RawSocket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 450; i++) {
                idle.add(RawSocket.open(port));
            }
            // It holds what it can and closes the rest at once; it does not die.
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
        Eventually.holds(vertx, () -> ProcessProbe.fileDescriptors(child.pid()) <= baselineFds + 20);
        assertThat(ProcessProbe.residentKib(child.pid())).isLessThan(baselineRss + RSS_SLACK_KIB);
        assertThat(chat(port)).isEqualTo(200);
        assertThat(log()).doesNotContain("NoClassDefFoundError").doesNotContain("OutOfMemoryError");

        child.destroy(); // SIGTERM
        assertThat(child.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("stopped by SIGTERM: " + log()).isTrue();
    }

    private Optional<Integer> port() {
        return log().lines().filter(line -> line.startsWith("PORT ")).findFirst()
                .map(line -> Integer.parseInt(line.substring(5).trim()));
    }

    private String log() {
        try {
            return Files.exists(output) ? Files.readString(output) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether {@code /healthz} answers 200 within 1 s. */
    private static boolean healthz(int port) {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            return socket.read(Duration.ofSeconds(1)).status() == 200;
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
