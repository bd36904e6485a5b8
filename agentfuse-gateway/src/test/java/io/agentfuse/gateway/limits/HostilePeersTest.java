package io.agentfuse.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.GatewayServer;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.HostileUpstream;
import io.agentfuse.gateway.testing.ProcessProbe;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The gateway against careless and hostile peers, each case over raw sockets on loopback (DESIGN §7
 * "Limits"). After every case the gateway must be healthy: {@code /healthz} answers within 1 s, its
 * file descriptors and memory are back near their baseline, and an unrelated request succeeds.
 * Limits are configured short ({@code headerTimeout: 1s}) so that the suite stays fast; waits are
 * bounded waits for a condition, never fixed sleeps.
 */
class HostilePeersTest {

    private static final String CONFIG = """
            server:
              port: 0
              eventLoops: 2
              maxBodySize: 10MB
              adminToken: "admin"
              headerTimeout: 1s
              idleTimeout: 2s
              maxConnections: 150
              clientWriteTimeout: 1s
              maxUpstreamBody: 1MB
              maxSseEvent: 64KB
              maxEventQueue: 16KB
              cors: { allowedOrigins: ["https://app.example"] }
            providers:
              mock: { type: openai, baseUrl: "http://127.0.0.1:${MOCK_PORT}/v1", apiKey: "sk-mock" }
              hostile: { type: openai, baseUrl: "http://127.0.0.1:${HOSTILE_PORT}/v1", apiKey: "sk-hostile" }
            retry:
              maxAttempts: 1
            models:
              good: { provider: mock, upstreamModel: gpt-4o-mini }
              windowed: { provider: mock, upstreamModel: gpt-4o-mini, contextWindow: 40000 }
              huge-length: { provider: hostile }
              endless-chunked: { provider: hostile }
              huge-error: { provider: hostile }
              endless-event: { provider: hostile }
              big-stream: { provider: hostile }
              plain: { provider: hostile, timeout: 20s }
              slow: { provider: hostile, timeout: 20s }
            """;
    private static final String HOST = "127.0.0.1";
    private static final Duration ONE_SECOND = Duration.ofSeconds(1);
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final int FD_SLACK = 40;
    /**
     * The gateway shares this JVM with the test's providers and clients, and the JVM keeps the heap
     * it grew to under allocation pressure: RSS here only catches runaway growth, while the live
     * heap after a collection must be back near its baseline. {@link FileDescriptorExhaustionTest}
     * measures the RSS of a gateway alone in its process.
     */
    private static final long RSS_SLACK_KIB = 1024L * 1024;
    private static final long HEAP_SLACK_KIB = 128L * 1024;

    private static Vertx vertx;
    private static Vertx providerVertx;
    private static MockProvider mock;
    private static HostileUpstream hostile;
    private static GatewayServer gateway;
    private static int port;
    private static int baselineFds;
    private static long baselineRss;
    private static long baselineHeap;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        mock = Await.result(MockProvider.start(vertx, 0));
        providerVertx = Vertx.vertx(); // the hostile provider must not share event loops with the gateway
        hostile = Await.result(HostileUpstream.start(providerVertx));
        AgentfuseConfig config = ConfigLoader.parse(CONFIG, "limits.yaml", Map.of(
                "MOCK_PORT", Integer.toString(mock.port()), "HOSTILE_PORT", Integer.toString(hostile.port())));
        gateway = Await.result(GatewayServer.start(vertx, config, GatewayOptions.builder().port(0).build()));
        port = gateway.port();
        assertThat(chat("good").status()).isEqualTo(200); // warm up before measuring
        baselineFds = ProcessProbe.fileDescriptors(ProcessProbe.self());
        baselineRss = ProcessProbe.residentKib(ProcessProbe.self());
        baselineHeap = liveHeapKib();
    }

    @AfterAll
    static void stop() {
        Await.result(gateway.close());
        Await.result(vertx.close());
        Await.result(providerVertx.close());
    }

    @AfterEach
    void theGatewayIsHealthyAgain() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            assertThat(socket.read(ONE_SECOND).status()).as("/healthz within 1 s").isEqualTo(200);
        }
        Eventually.holds(vertx, () -> ProcessProbe.fileDescriptors(ProcessProbe.self()) <= baselineFds + FD_SLACK);
        assertThat(ProcessProbe.residentKib(ProcessProbe.self())).as("RSS in KiB").isLessThan(baselineRss + RSS_SLACK_KIB);
        assertThat(liveHeapKib()).as("live heap in KiB").isLessThan(baselineHeap + HEAP_SLACK_KIB);
        assertThat(chat("good").status()).as("an unrelated request").isEqualTo(200);
    }

    // --- slow and idle clients -------------------------------------------------------------------

    @Test
    void halfAHeadIsClosed() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Ty");

            assertThat(socket.closedWithin(BOUND)).isTrue();
        }
    }

    @Test
    void aHeadTrickledByteByByteIsClosedBeforeItEnds() {
        String head = "GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nX-Padding: " + "p".repeat(400) + "\r\n\r\n";
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try (RawSocket socket = RawSocket.open(port)) {
            int[] sent = {0};
            // One byte every 50 ms: the head would take 20 s, far beyond headerTimeout, and the
            // connection is never idle long enough for idleTimeout.
            trickle.scheduleAtFixedRate(() -> {
                if (sent[0] < head.length() && socket.send(head.substring(sent[0], sent[0] + 1))) {
                    sent[0]++;
                }
            }, 0, 50, TimeUnit.MILLISECONDS);

            assertThat(socket.closedWithin(BOUND)).isTrue();
            assertThat(sent[0]).isLessThan(head.length());
        } finally {
            trickle.shutdownNow();
        }
    }

    @Test
    void aPromisedBodyThatNeverComesIsAnswered408() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST
                    + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"model\":");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(408);
            assertThat(new JsonObject(response.body()).getJsonObject("error").getString("type")).isEqualTo("request_timeout");
            assertThat(socket.closedWithin(BOUND)).isTrue();
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsClosed() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            assertThat(socket.read(BOUND).status()).isEqualTo(200);

            assertThat(socket.closedWithin(BOUND)).isTrue();
        }
    }

    @Test
    void aRequestWaitingLongerThanIdleTimeoutForItsProviderIsNotCut() {
        // idleTimeout is 2 s; the provider answers after 3 s.
        assertThat(chat("slow").status()).isEqualTo(200);
    }

    @Test
    void connectionsBeyondTheLimitAreRefusedAndTheOthersServed() {
        List<RawSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 170; i++) {
                RawSocket socket = RawSocket.open(port);
                sockets.add(socket);
                socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            }
            int served = 0;
            int refused = 0;
            for (RawSocket socket : sockets) {
                try {
                    assertThat(socket.read(BOUND).status()).isEqualTo(200);
                    served++;
                } catch (IllegalStateException closedWithoutAnswer) {
                    refused++;
                }
            }
            assertThat(refused).isGreaterThanOrEqualTo(20);
            assertThat(served).isPositive().isLessThanOrEqualTo(150);
        } finally {
            sockets.forEach(RawSocket::close);
        }
    }

    // --- request framing and origin rules ---------------------------------------------------------

    @Test
    void contentLengthWithTransferEncodingIs400AndNothingIsSmuggled() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + "GET /admin/breakers HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(errorType(response)).isEqualTo("invalid_request");
            assertThat(socket.rest(BOUND)).doesNotContain("HTTP/1.1");
        }
    }

    @Test
    void twoHostHeadersAre400() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nHost: evil.example\r\n\r\n");

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
    }

    @Test
    void cleartextHttp2IsNotSpoken() {
        try (RawSocket upgrade = RawSocket.open(port)) {
            upgrade.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n");

            Response response = upgrade.read(BOUND);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("upgrade")).isNull();
        }
        try (RawSocket priorKnowledge = RawSocket.open(port)) {
            priorKnowledge.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

            String answer = priorKnowledge.rest(BOUND);
            // Vert.x answers the HTTP/2 preface as a bad HTTP/1 request: no HTTP/2 frame ever comes back.
            assertThat(answer.isEmpty() || answer.startsWith("HTTP/") && !answer.matches("(?s)HTTP/\\S+ 2.*"))
                    .as(answer).isTrue();
        }
    }

    @Test
    void aForeignHostIsRefused() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send(RawSocket.post("/v1/chat/completions", "rebound.evil.example", chatBody("good").encode()));

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(403);
            assertThat(errorType(response)).isEqualTo("forbidden");
        }
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n");

            assertThat(socket.read(BOUND).status()).isEqualTo(200);
        }
    }

    @Test
    void aCrossOriginTextPlainPostIsNotServed() {
        int before = mock.requests().size();
        try (RawSocket socket = RawSocket.open(port)) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nOrigin: https://evil.example\r\n"
                    + "Content-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(403);
            assertThat(errorType(response)).isEqualTo("forbidden");
        }
        assertThat(mock.requests()).hasSize(before);
    }

    @Test
    void aTextPlainBodyIs415() {
        try (RawSocket socket = RawSocket.open(port)) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(415);
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
    }

    @Test
    void anAllowedOriginGetsPreflightAndCorsHeaders() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send("OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nOrigin: https://app.example\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, authorization\r\n\r\n");

            Response preflight = socket.read(BOUND);
            assertThat(preflight.status()).isEqualTo(204);
            assertThat(preflight.header("access-control-allow-origin")).isEqualTo("https://app.example");
            assertThat(preflight.header("access-control-allow-methods")).contains("POST");
            assertThat(preflight.header("access-control-allow-headers")).contains("content-type");
        }
        try (RawSocket socket = RawSocket.open(port)) {
            String body = chatBody("good").encode();
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: " + HOST + "\r\nOrigin: https://app.example\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("access-control-allow-origin")).isEqualTo("https://app.example");
        }
    }

    @Test
    void aNonFiniteNumberNeverReachesTheProvider() {
        int before = mock.requests().size();
        String body = "{\"model\": \"good\", \"seed\": 1e999, \"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}";
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, body));

            Response response = socket.read(BOUND);
            assertThat(response.status()).isEqualTo(400);
            assertThat(errorType(response)).isEqualTo("invalid_request");
        }
        assertThat(mock.requests()).hasSize(before);
    }

    // --- memory for one request ---------------------------------------------------------------------

    @Test
    void aQuarterMillionMessagesAreRefusedWithoutStallingOthers() {
        JsonArray messages = new JsonArray();
        for (int i = 0; i < 250_000; i++) {
            messages.add(new JsonObject().put("role", "user").put("content", "a"));
        }
        String body = new JsonObject().put("model", "good").put("messages", messages).encode();
        assertThat(body.length()).isGreaterThan(7_000_000);

        Response response = whileHealthy(() -> {
            try (RawSocket socket = RawSocket.open(port)) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, body));
                return socket.read(BOUND);
            }
        });

        assertThat(response.status()).isEqualTo(400);
        assertThat(errorType(response)).isEqualTo("invalid_request");
        assertThat(response.body()).contains("server.maxMessages");
    }

    @Test
    void aLongConversationIsMeasuredOffTheEventLoop() {
        JsonArray messages = new JsonArray();
        for (int i = 0; i < 9_000; i++) {
            messages.add(new JsonObject().put("role", i % 2 == 0 ? "user" : "assistant").put("content", "turn " + i + " of a long talk"));
        }
        String body = new JsonObject().put("model", "windowed").put("messages", messages).encode();

        Response response = whileHealthy(() -> {
            try (RawSocket socket = RawSocket.open(port)) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, body));
                return socket.read(Duration.ofSeconds(30));
            }
        });

        assertThat(response.status()).as(response.body()).isIn(200, 413);
        if (response.status() == 413) {
            assertThat(errorType(response)).isEqualTo("context_window_full");
        }
    }

    // --- broken and hostile providers ---------------------------------------------------------------

    @Test
    void anUpstreamBodyDeclaredHugeFailsTheAttempt() {
        assertFailedAttempt(chat("huge-length"));
    }

    @Test
    void anEndlessChunkedUpstreamBodyFailsTheAttempt() {
        assertFailedAttempt(chat("endless-chunked"));
    }

    @Test
    void anEndlessUpstreamErrorBodyFailsTheAttempt() {
        assertFailedAttempt(chat("huge-error"));
    }

    @Test
    void anUpstreamEventThatNeverEndsFailsTheAttempt() {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("endless-event").put("stream", true).encode()));

            assertFailedAttempt(socket.read(BOUND));
        }
    }

    @Test
    void callersThatStopReadingDoNotHoldTheProvidersPool() {
        List<RawSocket> stalled = new ArrayList<>();
        int before = hostile.requests();
        try {
            for (int i = 0; i < 70; i++) {
                RawSocket socket = RawSocket.open(port, 4096);
                stalled.add(socket);
                socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("big-stream").put("stream", true).encode()));
            }
            // 64 connections to the provider are taken by streams nobody reads.
            Eventually.holds(vertx, () -> hostile.requests() - before >= 64);

            Response ordinary = chat("plain");

            assertThat(ordinary.status()).as(ordinary.body()).isEqualTo(200);
            // Every stalled stream's provider call is cancelled (reading the callers first would un-stall them).
            Eventually.holds(vertx, () -> hostile.openConnections() <= 1);
            stalled.forEach(socket -> assertThat(socket.closedWithin(BOUND)).as("a stalled caller is cut off").isTrue());
        } finally {
            stalled.forEach(RawSocket::close);
        }
    }

    @Test
    void slowEventSubscribersAreDropped() {
        List<RawSocket> subscribers = new ArrayList<>();
        CircuitBreaker breaker = gateway.runtime().registry().find("model:plain").orElseThrow();
        try {
            for (int i = 0; i < 5; i++) {
                RawSocket socket = RawSocket.open(port, 4096);
                subscribers.add(socket);
                socket.send("GET /admin/events HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            }
            // About 18 MB of events each, more than the kernel's socket buffers and the 16 KB queue hold.
            for (int i = 0; i < 30_000; i++) {
                breaker.forceOpen("operator test " + i);
                breaker.close("operator test " + i);
            }

            subscribers.forEach(socket -> assertThat(socket.closedWithin(BOUND)).as("a slow subscriber is dropped").isTrue());
        } finally {
            breaker.reset();
            subscribers.forEach(RawSocket::close);
        }
    }

    // --- helpers -------------------------------------------------------------------------------------

    /** Runs {@code request} on another thread while checking that {@code /healthz} keeps answering within 1 s. */
    private static Response whileHealthy(java.util.function.Supplier<Response> request) {
        CompletableFuture<Response> answer = CompletableFuture.supplyAsync(request);
        int checks = 0;
        do {
            try (RawSocket socket = RawSocket.open(port)) {
                socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
                assertThat(socket.read(ONE_SECOND).status()).as("/healthz while the request is handled").isEqualTo(200);
            }
            checks++;
        } while (!answer.isDone());
        assertThat(checks).isPositive();
        return answer.join();
    }

    private static long liveHeapKib() {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return (runtime.totalMemory() - runtime.freeMemory()) / 1024;
    }

    private static void assertFailedAttempt(Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(502);
        assertThat(errorType(response)).isEqualTo("all_fallbacks_failed");
    }

    private static Response chat(String model) {
        try (RawSocket socket = RawSocket.open(port)) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody(model).encode()));
            return socket.read(Duration.ofSeconds(30));
        }
    }

    private static JsonObject chatBody(String model) {
        return new JsonObject().put("model", model)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    private static String errorType(Response response) {
        return new JsonObject(response.body()).getJsonObject("error").getString("type");
    }
}
