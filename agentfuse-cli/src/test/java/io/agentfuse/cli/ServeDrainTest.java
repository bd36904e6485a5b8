package io.agentfuse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling deploy's SIGTERM to {@code agentfuse serve} in a process of its own (docs/design.md §14), with a
 * slow complete call and three slow streams (one per dialect) in flight and new connections arriving:
 * {@code /readyz} turns 503, new connections are still answered while the drain lasts, the complete
 * call finishes, each stream that outlives {@code server.shutdownGrace} ends with its dialect's error
 * event, no connection is reset without an answer, and the process exits with 0.
 */
class ServeDrainTest {

    /** Streams of 60 one-second pieces: certain to outlive the grace below. */
    private static final MockStep ENDLESS_STREAM = MockStep.builder()
            .chunks(Collections.nCopies(60, "word ")).chunkDelayMs(1_000).build();
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private Vertx vertx;
    private MockProvider mock;
    private ServeProcess gateway;

    @BeforeEach
    void startMock() throws Exception {
        vertx = Vertx.vertx();
        mock = MockProvider.start(vertx, 0).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void sigtermDrainsAnswersEverythingInFlightAndExitsWithZero() throws Exception {
        // Given a gateway with a short drain and grace, a complete call waiting for its provider and three streams under way
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), """
                server: { port: 0, drainDelay: 3s, shutdownGrace: 3s }
                providers:
                  openai: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-test" }
                  anthropic: { type: anthropic, baseUrl: "http://127.0.0.1:${MOCK_PORT}", apiKey: "sk-test" }
                models:
                  slow-answer: { provider: openai }
                  slow-chat: { provider: openai }
                  slow-responses: { provider: openai }
                  slow-claude: { provider: anthropic }
                  quick: { provider: openai }
                """);
        mock.scriptForModel("slow-answer", MockStep.builder().delayMs(1_500).text("finished in time").build());
        mock.scriptForModel("slow-chat", ENDLESS_STREAM);
        mock.scriptForModel("slow-responses", ENDLESS_STREAM);
        mock.scriptForModel("slow-claude", ENDLESS_STREAM);
        gateway = ServeProcess.start(config, Map.of("MOCK_PORT", Integer.toString(mock.port())));
        int port = gateway.port();
        assertThat(status(RawExchange.send(port, "GET", "/readyz", null))).isEqualTo(200);

        RawExchange chat = RawExchange.send(port, "POST", "/v1/chat/completions",
                "{\"model\":\"slow-chat\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        RawExchange responses = RawExchange.send(port, "POST", "/v1/responses",
                "{\"model\":\"slow-responses\",\"stream\":true,\"input\":\"hi\"}");
        RawExchange claude = RawExchange.send(port, "POST", "/v1/messages",
                "{\"model\":\"slow-claude\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        for (RawExchange stream : List.of(chat, responses, claude)) {
            stream.awaitReceived("word", BOUND);
        }
        RawExchange complete = RawExchange.send(port, "POST", "/v1/chat/completions",
                "{\"model\":\"slow-answer\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        awaitUpstreamCall("slow-answer");

        // When the process is sent SIGTERM
        gateway.signal("TERM");

        // Then /readyz turns 503, every probe on a new connection being answered
        List<Integer> probes = new ArrayList<>();
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (probes.isEmpty() || probes.get(probes.size() - 1) != 503) {
            assertThat(System.nanoTime()).as("/readyz turns 503; probes so far: %s", probes).isLessThan(deadline);
            probes.add(status(RawExchange.send(port, "GET", "/readyz", null)));
        }
        assertThat(probes).allMatch(status -> status == 200 || status == 503);
        // and new connections are still served while the drain lasts, each answer closing its connection
        for (int i = 0; i < 3; i++) {
            String answer = RawExchange.send(port, "POST", "/v1/chat/completions",
                    "{\"model\":\"quick\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").ended().get(20, TimeUnit.SECONDS);
            assertThat(answer).startsWith("HTTP/1.1 200").containsIgnoringCase("\r\nconnection: close\r\n");
        }
        // and the complete call finishes, the streams end with their dialect's error event, none cut without it
        assertThat(complete.ended().get(20, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200").contains("finished in time");
        assertThat(chat.ended().get(20, TimeUnit.SECONDS))
                .containsPattern("data: \\{\"error\":\\{[^\\n]*\"type\":\"shutting_down\"").doesNotContain("[DONE]");
        assertThat(claude.ended().get(20, TimeUnit.SECONDS)).contains("event: error").contains("shutting down")
                .doesNotContain("event: message_stop");
        assertThat(responses.ended().get(20, TimeUnit.SECONDS)).contains("event: response.failed").contains("shutting down")
                .doesNotContain("response.completed");
        // and the process exits with 0, having said what it did
        assertThat(gateway.awaitExit()).as(gateway.output()).isZero();
        assertThat(gateway.output()).contains("stopping: /readyz answers 503")
                .contains("server.shutdownGrace is over");
    }

    @Test
    void withNothingInFlightSigtermStillAnswersNewConnectionsDuringTheDrainThenExitsWithZero() throws Exception {
        Path config = Files.writeString(directory.resolve("agentfuse.yaml"), "server: { port: 0, drainDelay: 1s }\n");
        gateway = ServeProcess.start(config, Map.of());

        gateway.signal("TERM");
        gateway.awaitLine(Pattern.compile("stopping: /readyz answers 503"));

        assertThat(RawExchange.send(gateway.port(), "GET", "/healthz", null).ended().get(20, TimeUnit.SECONDS))
                .as("a draining gateway is alive").startsWith("HTTP/1.1 200");
        assertThat(gateway.awaitExit()).as(gateway.output()).isZero();
        assertThat(gateway.output()).doesNotContain("shutdownGrace is over");
    }

    @Test
    void aProviderThatStopsReadingHoldsNeitherTheDrainNorTheExit() throws Exception {
        // Given a provider that takes connections and never reads, and a request of 5 MB to it in flight
        try (ServerSocket neverReads = new ServerSocket()) {
            neverReads.setReceiveBufferSize(4_096);
            neverReads.bind(new InetSocketAddress("127.0.0.1", 0));
            List<Socket> held = Collections.synchronizedList(new ArrayList<>());
            Thread taker = new Thread(() -> {
                try {
                    while (true) {
                        held.add(neverReads.accept());
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "never-reading-provider");
            taker.setDaemon(true);
            taker.start();
            Path config = Files.writeString(directory.resolve("agentfuse.yaml"), """
                    server: { port: 0, drainDelay: 1s, shutdownGrace: 2s }
                    providers:
                      stuck: { type: openai, baseUrl: "http://127.0.0.1:%d/v1", apiKey: "sk-test" }
                    models:
                      stuck-model: { provider: stuck, contextWindow: 2000000, timeout: 120s }
                    """.formatted(neverReads.getLocalPort()));
            gateway = ServeProcess.start(config, Map.of());
            String body = "{\"model\":\"stuck-model\",\"messages\":[{\"role\":\"user\",\"content\":\""
                    + "a".repeat(5_000_000) + "\"}]}";
            RawExchange call = RawExchange.send(gateway.port(), "POST", "/v1/chat/completions", body);
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (held.isEmpty()) {
                assertThat(System.nanoTime()).as("the gateway calls the provider").isLessThan(deadline);
                TimeUnit.MILLISECONDS.sleep(20);
            }

            // When the gateway is stopped, then the call is answered and the process exits with 0
            gateway.signal("TERM");

            assertThat(status(call)).isEqualTo(503);
            assertThat(gateway.awaitExit()).as(gateway.output()).isZero();
            synchronized (held) {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    private void awaitUpstreamCall(String model) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (mock.requestsFor(model).isEmpty()) {
            assertThat(System.nanoTime()).as("the provider is called for %s", model).isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static int status(RawExchange exchange) throws Exception {
        String answer = exchange.ended().get(20, TimeUnit.SECONDS);
        assertThat(answer).startsWith("HTTP/1.1 ");
        return Integer.parseInt(answer.substring(9, 12));
    }
}
