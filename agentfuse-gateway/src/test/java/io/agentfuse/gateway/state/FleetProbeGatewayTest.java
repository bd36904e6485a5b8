package io.agentfuse.gateway.state;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.agentfuse.gateway.testing.Await;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import io.agentfuse.redis.RedisStateStore;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three gateways on one real redis-server recover from a trip together: when the open time ends,
 * the first request that reaches any of them is the fleet's one upstream probe, and its result
 * closes or reopens the breaker on every gateway (regression: every request was refused, no
 * gateway probed, and all stayed HALF_OPEN). Open times are short and configured; the test waits
 * for states and counts calls, it never measures time.
 */
class FleetProbeGatewayTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String MODEL = "claude-haiku-4";
    private static final String UPSTREAM = "claude-haiku-4-5";
    private static final String BREAKER = "model:" + MODEL;

    private static RedisServerProcess redis;

    private final String keyPrefix = "fleet-probe-" + UUID.randomUUID() + ":";
    private final List<Gateway> fleet = new ArrayList<>();
    private final ExecutorService callers = Executors.newFixedThreadPool(6);

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void stopGateways() {
        callers.shutdownNow();
        fleet.forEach(gateway -> gateway.harness.close());
    }

    /** One gateway of the fleet and the transitions of its breaker of {@link #MODEL}. */
    private record Gateway(GatewayHarness harness, List<StateTransition> transitions) {

        Reply call() {
            return harness.client.post("/v1/messages", anthropicRequest(MODEL, false));
        }

        JsonObject breaker() {
            return harness.client.get("/admin/breakers/" + BREAKER).json();
        }

        String state() {
            return breaker().getString("state");
        }

        boolean went(CircuitState from, CircuitState to) {
            return transitions.stream().anyMatch(event -> event.from() == from && event.to() == to);
        }
    }

    /** Three gateways whose breakers open for {@code resetTimeout}, sharing state on Redis. */
    private void startFleet(String resetTimeout) {
        for (int i = 0; i < 3; i++) {
            GatewayHarness harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: " + resetTimeout) + """
                    state:
                      store: redis
                      redis: { uri: "%s", keyPrefix: "%s" }
                    """.formatted(redis.uri(), keyPrefix));
            List<StateTransition> transitions = new CopyOnWriteArrayList<>();
            harness.gateway.runtime().registry().addListener(new CircuitBreakerListener() {
                @Override
                public void onStateTransition(StateTransition event) {
                    if (event.breaker().equals(BREAKER)) {
                        transitions.add(event);
                    }
                }
            });
            fleet.add(new Gateway(harness, transitions));
        }
        Eventually.await("every gateway connects to Redis", WAIT, () -> fleet.stream().allMatch(gateway ->
                ((RedisStateStore) gateway.harness.gateway.runtime().registry().stateStore().orElseThrow()).isConnected()));
    }

    /** Trips the breaker through the first gateway and waits until every gateway has it open. */
    private void tripThroughTheFirst() {
        GatewayHarness first = fleet.get(0).harness;
        first.mock.scriptForModel(UPSTREAM, MockStep.builder().status(500).times(3).build());
        for (int i = 0; i < 3; i++) {
            first.client.post("/v1/messages", anthropicRequest(MODEL, false));
        }
        Eventually.await("every gateway has the breaker open", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.went(CircuitState.CLOSED, CircuitState.OPEN)));
    }

    private long upstreamCalls() {
        return fleet.stream().mapToLong(gateway -> gateway.harness.requestsFor(UPSTREAM)).sum();
    }

    /** Two requests to every gateway at once; their answers. */
    private List<Reply> twoConcurrentRequestsPerGateway() {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Reply>> replies = new ArrayList<>();
        for (Gateway gateway : fleet) {
            for (int i = 0; i < 2; i++) {
                replies.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return gateway.call();
                }, callers));
            }
        }
        start.countDown();
        return replies.stream().map(CompletableFuture::join).toList();
    }

    /**
     * Waits, without looking at the breakers (a look moves a due breaker on), until the open time
     * that the first gateway shows has passed, and a little more.
     */
    private void untilTheOpenTimeHasPassed() {
        Instant openUntil = openUntilOn(fleet.get(0));
        Duration left = Duration.between(Instant.now(), openUntil).plusMillis(50);
        if (!left.isNegative()) {
            Await.result(fleet.get(0).harness.vertx.timer(left.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    private static Instant openUntilOn(Gateway gateway) {
        return Instant.parse(gateway.breaker().getString("openUntil"));
    }

    @Test
    void concurrentRequestsAfterTheOpenTimeMakeOneUpstreamProbeWhoseSuccessClosesEveryGateway() {
        startFleet("2500ms");
        tripThroughTheFirst();
        slowUpstreamAnswers(200);
        long callsBefore = upstreamCalls();
        untilTheOpenTimeHasPassed();

        List<Reply> replies = twoConcurrentRequestsPerGateway();

        assertThat(upstreamCalls() - callsBefore).as("one probe across the fleet").isEqualTo(1);
        assertThat(replies).extracting(Reply::status).containsOnlyOnce(200).containsOnly(200, 503);
        assertThat(replies).filteredOn(reply -> reply.status() == 503).allSatisfy(refused -> {
            assertThat(refused.json().getJsonObject("error").getString("type")).isEqualTo("circuit_open");
            assertThat(refused.header("retry-after")).as("the probe's answer is near").isEqualTo("1");
            assertThat(refused.header("x-should-retry")).isEqualTo("true");
        });
        Eventually.await("every gateway closes", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.state().equals("CLOSED")));
        upstreamAnswers(200);
        assertThat(fleet).allSatisfy(gateway -> assertThat(gateway.call().status()).isEqualTo(200));
    }

    @Test
    void concurrentRequestsAfterTheOpenTimeMakeOneUpstreamProbeWhoseFailureReopensEveryGateway() {
        startFleet("2500ms");
        tripThroughTheFirst();
        slowUpstreamAnswers(500);
        long callsBefore = upstreamCalls();
        untilTheOpenTimeHasPassed();

        List<Reply> replies = twoConcurrentRequestsPerGateway();

        assertThat(upstreamCalls() - callsBefore).as("one probe across the fleet").isEqualTo(1);
        assertThat(replies).extracting(Reply::status).doesNotContain(200).containsOnlyOnce(502);
        Eventually.await("every gateway opens again", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.went(CircuitState.HALF_OPEN, CircuitState.OPEN)));
        assertThat(fleet).allSatisfy(gateway -> assertThat(gateway.transitions()).last()
                .satisfies(event -> assertThat(event.reason()).contains("half-open probe failed")));
    }

    @Test
    void singleRequestsSpreadOverTheGatewaysRecoverOnTheFirstRequestAfterTheOpenTime() {
        startFleet("2500ms");
        tripThroughTheFirst();
        Instant openUntil = openUntilOn(fleet.get(0));
        long callsBefore = upstreamCalls();

        List<Sent> sent = roundRobinUntil(200);

        answeredAtOnceAfter(openUntil, sent, 200);
        assertThat(upstreamCalls() - callsBefore).as("one upstream call: the probe").isEqualTo(1);
        // The probe's close reaches the others through the store: a gateway whose own open time ran out a
        // few milliseconds after the probe succeeded, before the close reached it, was told the lease was
        // still held and refused its call (503, Retry-After 1), as it must while a probe may be under way.
        Eventually.await("every gateway closes", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.state().equals("CLOSED")));
        assertThat(fleet).allSatisfy(gateway -> assertThat(gateway.call().status()).isEqualTo(200));
    }

    @Test
    void singleRequestsSpreadOverTheGatewaysReopenEveryGatewayWhenTheProbeFailsAndCloseItWhenTheNextSucceeds() {
        startFleet("2500ms");
        tripThroughTheFirst();
        Instant openUntil = openUntilOn(fleet.get(0));
        upstreamAnswers(500);
        long callsBefore = upstreamCalls();

        List<Sent> failed = roundRobinUntil(502);
        Instant reopenedUntil = openUntilOn(failed.get(failed.size() - 1).by());
        Eventually.await("every gateway opens again", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.went(CircuitState.HALF_OPEN, CircuitState.OPEN)));
        long failedProbes = upstreamCalls() - callsBefore;
        upstreamAnswers(200);
        List<Sent> recovered = roundRobinUntil(200);

        answeredAtOnceAfter(openUntil, failed, 502);
        assertThat(failedProbes).as("one failed probe across the fleet").isEqualTo(1);
        answeredAtOnceAfter(reopenedUntil, recovered, 200);
        assertThat(upstreamCalls() - callsBefore).as("then one successful probe").isEqualTo(2);
        Eventually.await("every gateway closes", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.state().equals("CLOSED")));
    }

    @Test
    void withRedisFrozenEveryGatewayGoesOnAnsweringTripsAndRecoversAlone() {
        startFleet("1200ms");
        Gateway first = fleet.get(0);
        redis.pause();
        try {
            assertThat(fleet).allSatisfy(gateway -> assertThat(gateway.call().status()).isEqualTo(200));
            first.harness.mock.scriptForModel(UPSTREAM, MockStep.builder().status(500).times(3).build());
            for (int i = 0; i < 3; i++) {
                first.call();
            }
            assertThat(first.went(CircuitState.CLOSED, CircuitState.OPEN)).isTrue();
            assertThat(first.call().status()).as("refused at once, locally").isEqualTo(503);
            assertThat(fleet.get(1).call().status()).isEqualTo(200);
            untilTheOpenTimeHasPassed();

            assertThat(first.call().status()).as("the probe, made alone without Redis").isEqualTo(200);
            assertThat(first.state()).isEqualTo("CLOSED");
        } finally {
            redis.resume();
        }
    }

    /**
     * The requests were refused (503) only while the breaker was open, and the first one sent after
     * {@code openUntil} (or one sent just before, which arrived after) was the probe, answered {@code status}.
     */
    private static void answeredAtOnceAfter(Instant shownOpenUntil, List<Sent> sent, int status) {
        // an instance's open time ends within a millisecond of the instant shown (whole milliseconds on the wire)
        Instant openUntil = shownOpenUntil.plusMillis(5);
        assertThat(sent).filteredOn(request -> !request.at().isBefore(openUntil))
                .as("the first request after the open time probes").extracting(Sent::status).containsOnly(status);
        assertThat(sent.subList(0, sent.size() - 1)).as("refused only while open").allSatisfy(request -> {
            assertThat(request.status()).isEqualTo(503);
            assertThat(request.at()).isBefore(openUntil);
        });
    }

    /**
     * Every gateway's upstream answers {@code status} from now on, after a second: every request
     * fired together reaches its gateway while the probe is still out, however the threads are scheduled.
     */
    private void slowUpstreamAnswers(int status) {
        fleet.forEach(gateway -> gateway.harness.mock.defaultStep(MockStep.builder().status(status).delayMs(1_000).build()));
    }

    /** Every gateway's upstream answers {@code status} from now on. */
    private void upstreamAnswers(int status) {
        fleet.forEach(gateway -> gateway.harness.mock.defaultStep(MockStep.builder().status(status).build()));
    }

    /** A request of the round robin: when it was sent, to which gateway, and how it was answered. */
    private record Sent(Instant at, Gateway by, int status) {
    }

    /** One request every 500 ms, to the gateways in turn, until one is answered {@code status}; their answers. */
    private List<Sent> roundRobinUntil(int status) {
        List<Sent> sent = new ArrayList<>();
        for (int turn = 0; sent.isEmpty() || sent.get(sent.size() - 1).status() != status; turn++) {
            assertThat(turn).as("requests before one is answered %d", status).isLessThan(40);
            if (turn > 0) {
                Await.result(fleet.get(0).harness.vertx.timer(500, TimeUnit.MILLISECONDS));
            }
            Instant at = Instant.now();
            Gateway gateway = fleet.get(turn % fleet.size());
            sent.add(new Sent(at, gateway, gateway.call().status()));
        }
        return sent;
    }
}
