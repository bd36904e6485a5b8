package io.agentfuse.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.Eventually;
import io.agentfuse.gateway.testing.HostileUpstream;
import io.agentfuse.gateway.testing.RawSocket;
import io.agentfuse.gateway.testing.RawSocket.Response;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The fixture of the hostile-peer cases (docs/design.md §7 "Limits"): a gateway alone in a child process
 * with a bounded heap, its providers — a {@link MockProvider} and a {@link HostileUpstream} — in the
 * test JVM. Started once per test class, measured after a warm-up; after every case it asserts
 * that the gateway is healthy again: {@code /healthz} answers, its file descriptors, resident
 * memory and live heap are back near their baseline, and an unrelated request succeeds.
 *
 * <p>The size limits are small, so that a case reaches them quickly. The timeouts are the
 * product's defaults ({@code headerTimeout} 30 s, {@code idleTimeout} 75 s,
 * {@code clientWriteTimeout} 30 s), which no ordinary request meets even on a loaded machine (the one
 * call timeout set apart is {@link #BIG_ANSWER_TIMEOUT}'s, for calls that are slow by design); a
 * test class about one of them sets it shorter ({@link #withServerKeys}) and triggers it with a
 * peer that never sends or never reads, never with one that is merely slow. No case asserts how
 * long anything took: every wait is for a condition, bounded by {@link #BOUND} only so that a bug
 * fails instead of hanging.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final IsolatedGateway gateway = IsolatedGateway.withServerKeys("headerTimeout: 5s");
 * }</pre>
 */
final class IsolatedGateway implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {

    static final String HOST = "127.0.0.1";
    /** How long a case waits for an answer or a close before it fails: a hang guard, not a measure. */
    static final Duration BOUND = Duration.ofSeconds(30);
    /**
     * The {@code timeout} of {@code big-answer}, the gateway's own bound on its calls (after it, a 504
     * {@code timeout}), and the time from which its breaker counts a call as slow. Longer than the
     * product's 60 s: forty 4 MB answers on the 160 MiB heap make a heap that collects garbage all
     * the time, and with three CPU burners beside it on two cores some answers took more than a
     * minute (a head after 62 s; one call ended 504 at 60 s, and three slow calls in a row opened the
     * breaker for the next case). Slow is not the fault under test; a call left unanswered is.
     */
    static final Duration BIG_ANSWER_TIMEOUT = Duration.ofMinutes(3);
    /**
     * How the child JVM runs, so that its RSS is bounded and comparable from case to case. The heap
     * is fixed and touched at start ({@code -Xms} = {@code -Xmx}, {@code AlwaysPreTouch}): it is all
     * in the baseline and cannot grow RSS, while a heap leak shows in the live heap instead. What
     * can still grow RSS is native memory: direct buffers (capped at 32 MiB), metaspace, code,
     * threads and malloc (two arenas, {@link #ENVIRONMENT}). The JVM trims the malloc heap every
     * second: C2's compilations malloc arenas of several MiB and free them, and without the trim
     * glibc keeps them — RSS growth of 10–15 MiB in cases that merely ran new code. Trimming
     * returns only free memory, so what is still allocated (a leak) stays in RSS.
     */
    static final List<String> JVM_FLAGS = List.of("-Xms160m", "-Xmx160m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC",
            "-XX:MaxDirectMemorySize=32m", "-XX:ReservedCodeCacheSize=64m", "-XX:MaxMetaspaceSize=96m", "-Xss512k",
            "-XX:+UnlockExperimentalVMOptions", "-XX:TrimNativeHeapInterval=1000");
    /** The child's environment beyond the ports: at most two malloc arenas, as the RSS bound assumes. */
    static final Map<String, String> ENVIRONMENT = Map.of("MALLOC_ARENA_MAX", "2");

    private final String config;
    private Vertx vertx;
    private Vertx providerVertx;
    private MockProvider mock;
    private HostileUpstream hostile;
    private ChildGatewayProcess child;
    private ResourceBaseline baseline;

    /** A gateway with the product's timeouts. */
    IsolatedGateway() {
        this(List.of());
    }

    private IsolatedGateway(List<String> serverKeys) {
        this.config = IsolatedGatewayConfig.withServerKeys(serverKeys);
    }

    /**
     * A gateway whose {@code server} section also has {@code keys} (such as {@code "idleTimeout: 5s"}),
     * for a test class about those limits.
     */
    static IsolatedGateway withServerKeys(String... keys) {
        return new IsolatedGateway(List.of(keys));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        vertx = GatewayVertx.create();
        providerVertx = GatewayVertx.create(); // the providers must not share event loops with the test's waits
        mock = Await.result(MockProvider.start(providerVertx, 0));
        hostile = Await.result(HostileUpstream.start(providerVertx));
        Map<String, String> environment = new HashMap<>(ENVIRONMENT);
        environment.put("MOCK_PORT", Integer.toString(mock.port()));
        environment.put("HOSTILE_PORT", Integer.toString(hostile.port()));
        child = ChildGatewayProcess.start(config, environment, JVM_FLAGS, 0);
        warmUp();
        baseline = ResourceBaseline.measure(child, vertx, context.getRequiredTestClass().getSimpleName() + " baseline");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (child != null) {
            child.close();
        }
        Await.result(vertx.close());
        Await.result(providerVertx.close());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertThat(child.isAlive()).as("the gateway process is alive: " + child.log()).isTrue();
        assertThat(healthz().status()).as("/healthz").isEqualTo(200);
        baseline.assertBackNear(context.getRequiredTestClass().getSimpleName() + "." + context.getRequiredTestMethod().getName());
        assertThat(chat("good").status()).as("an unrelated request").isEqualTo(200);
    }

    /** The gateway's open file descriptors now. */
    int fileDescriptors() {
        return child.fileDescriptors();
    }

    /** Waits, within a bound, until the gateway holds at most {@code limit} descriptors; says whether it did. */
    boolean fileDescriptorsFallTo(int limit) {
        ResourceBaseline.settle(vertx, () -> child.fileDescriptors() <= limit);
        return child.fileDescriptors() <= limit;
    }

    /** The gateway's live heap (after a collection) now, in KiB. */
    long liveHeapKib() {
        return child.liveHeapKib();
    }

    /** The live heap measured after the warm-up, in KiB. */
    long baselineHeapKib() {
        return baseline.heapKib();
    }

    /** What the gateway process printed so far. */
    String log() {
        return child.log();
    }

    /** The gateway's port. */
    int port() {
        return child.port();
    }

    /** A Vert.x for bounded waits ({@link Eventually}) in the test. */
    Vertx vertx() {
        return vertx;
    }

    MockProvider mock() {
        return mock;
    }

    HostileUpstream hostile() {
        return hostile;
    }

    /**
     * Forces breaker {@code name} in the gateway open and closed {@code times} times (two events
     * each); returns once its event loops have handled every event.
     */
    void flipBreaker(String name, int times) {
        child.flip(name, times);
    }

    /**
     * Waits, within a bound, until a new connection is served again: connections a test closed
     * keep their place under {@code server.maxConnections} until the gateway has read each close.
     */
    void waitUntilConnectionsAreServed() {
        Eventually.holds(vertx, () -> {
            try {
                return healthz().status() == 200;
            } catch (IllegalStateException refused) {
                return false;
            }
        });
    }

    /** {@code GET /healthz} on a connection of its own. */
    Response healthz() {
        try (RawSocket socket = RawSocket.open(port())) {
            socket.send("GET /healthz HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
            return socket.read(BOUND);
        }
    }

    /** A small chat completion for {@code model}, on a connection of its own. */
    Response chat(String model) {
        try (RawSocket socket = RawSocket.open(port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody(model).encode()));
            return socket.read(BOUND);
        }
    }

    /**
     * Runs {@code request} on another thread while asking {@code /healthz} again and again until the
     * request is answered: every one of those must be answered too.
     */
    Response whileHealthy(Supplier<Response> request) {
        CompletableFuture<Response> answer = CompletableFuture.supplyAsync(request);
        int checks = 0;
        do {
            assertThat(healthz().status()).as("/healthz while the request is handled").isEqualTo(200);
            checks++;
        } while (!answer.isDone());
        assertThat(checks).isPositive();
        return answer.join();
    }

    /** A request for the {@code windowed} model (40 000 tokens) with {@code turns} short turns. */
    static JsonObject longTalk(int turns) {
        JsonArray messages = new JsonArray();
        for (int i = 0; i < turns; i++) {
            messages.add(new JsonObject().put("role", i % 2 == 0 ? "user" : "assistant").put("content", "turn " + i + " of a long talk"));
        }
        return new JsonObject().put("model", "windowed").put("messages", messages);
    }

    static JsonObject chatBody(String model) {
        return new JsonObject().put("model", model)
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    }

    static String errorType(Response response) {
        return new JsonObject(response.body()).getJsonObject("error").getString("type");
    }

    /**
     * Answers, errors, long conversations and a failed stream, so that the baseline includes the
     * classes, compiled code and connection pools that every case needs anyway.
     */
    private void warmUp() {
        // A cold JVM on a busy machine may be slow to serve its first connection: wait until it does.
        waitUntilConnectionsAreServed();
        for (int i = 0; i < 20; i++) {
            assertThat(chat("good").status()).isEqualTo(200);
            assertThat(chat("plain").status()).isEqualTo(200);
            assertThat(healthz().status()).isEqualTo(200);
        }
        JsonArray messages = new JsonArray();
        for (int i = 0; i < 2_000; i++) {
            messages.add(new JsonObject().put("role", "user").put("content", "turn " + i));
        }
        String conversation = new JsonObject().put("model", "good").put("messages", messages).encode();
        for (int i = 0; i < 10; i++) {
            try (RawSocket socket = RawSocket.open(port())) {
                socket.send(RawSocket.post("/v1/chat/completions", HOST, conversation));
                assertThat(socket.read(BOUND).status()).isEqualTo(200);
            }
        }
        // The tokenizer's vocabulary is loaded on the first request that must be counted exactly (a
        // long talk near a small window): part of the baseline, not something a later case leaks.
        try (RawSocket socket = RawSocket.open(port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, longTalk(9_000).encode()));
            assertThat(socket.read(BOUND).status()).isIn(200, 413);
        }
        assertThat(chat("huge-error").status()).isEqualTo(502);
        try (RawSocket socket = RawSocket.open(port())) {
            socket.send(RawSocket.post("/v1/chat/completions", HOST, chatBody("endless-event").put("stream", true).encode()));
            assertThat(socket.read(BOUND).status()).isEqualTo(502);
        }
    }
}
