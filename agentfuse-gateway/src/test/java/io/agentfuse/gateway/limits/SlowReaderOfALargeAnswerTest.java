package io.agentfuse.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.HostileUpstream;
import io.agentfuse.gateway.testing.RawSocket;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A caller that reads a large complete answer more slowly than the gateway writes it, but steadily,
 * gets all of it. The gateway cuts a caller it finds unable to take more writes at two
 * {@code headerTimeout} checks in a row (one that stopped reading); a caller slower than the
 * gateway's writes is unable to take more at nearly every check too, and was cut halfway through its
 * answer though it read on: in {@link LargeAnswersTest} on a loaded machine, fifteen of forty callers
 * got a 200 head and then a reset. The caller here takes 64 KB every 100 ms of a 4 MB answer, some
 * six {@code headerTimeout} checks of 1 s.
 */
class SlowReaderOfALargeAnswerTest {

    private static final String CONFIG = """
            server:
              port: 0
              headerTimeout: 1s
              idleTimeout: 10m
            providers:
              hostile: { type: openai, baseUrl: "http://127.0.0.1:${HOSTILE_PORT}/v1", apiKey: "sk-hostile" }
            retry:
              maxAttempts: 1
            models:
              big-answer: { provider: hostile, timeout: 60s }
            """;

    /** What the caller reads every 100 ms: 640 KB a second, far slower than the gateway writes. */
    private static final int TAKEN_PER_TURN = 64 * 1024;

    private final Vertx vertx = GatewayVertx.create();
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();
    private GatewayServer gateway;
    private RawSocket caller;

    @AfterEach
    void stop() {
        reader.shutdownNow();
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
    void aCallerThatReadsALargeAnswerSlowlyButSteadilyGetsAllOfIt() throws Exception {
        HostileUpstream upstream = Await.result(HostileUpstream.start(vertx));
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "test.yaml", Map.of("HOSTILE_PORT", Integer.toString(upstream.port())));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        caller = RawSocket.open(gateway.port(), 4096);
        caller.send(RawSocket.post("/v1/chat/completions", "127.0.0.1", new JsonObject().put("model", "big-answer")
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi"))).encode()));
        String head = caller.head(Duration.ofSeconds(60));
        long length = contentLength(head);

        AtomicLong read = new AtomicLong();
        CompletableFuture<Long> done = new CompletableFuture<>();
        ScheduledFuture<?> reading = reader.scheduleAtFixedRate(() -> {
            try {
                long thisTurn = 0;
                while (thisTurn < TAKEN_PER_TURN && !done.isDone()) {
                    int some = caller.readSome(TAKEN_PER_TURN, Duration.ofSeconds(30));
                    if (some < 0 || read.addAndGet(some) >= length) {
                        done.complete(read.get());
                    }
                    thisTurn += Math.max(some, 0);
                }
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        long received = done.get(2, TimeUnit.MINUTES);
        reading.cancel(false);

        assertThat(head).startsWith("HTTP/1.1 200");
        assertThat(received).as("bytes of the %d-byte answer read before the connection ended", length).isEqualTo(length);
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new AssertionError("no content-length in " + head);
    }
}
