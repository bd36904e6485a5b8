package io.agentfuse.gateway.state;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.agentfuse.gateway.GatewayOptions;
import io.agentfuse.gateway.testing.GatewayClient.Reply;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockHold;
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

import static io.agentfuse.gateway.testing.GatewayHarness.anthropicRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three gateways on one real redis-server recover from a trip together: when the open time ends,
 * the first request that reaches any of them is the fleet's one upstream probe, and its result
 * closes or reopens the breaker on every gateway (regression: every request was refused, no
 * gateway probed, and all stayed HALF_OPEN). The gateways' breakers share one manual clock, so the
 * open time ends when the test says so, on every gateway at once: the test never sleeps and never
 * looks at the wall clock. It waits for a state or a count ({@link #WAIT} is a hang guard); the
 * probe's upstream answer that must outlast the requests beside it is held by the mock until they
 * are answered ({@link #heldUpstreamAnswers}). The probe of those tests goes to the gateway that
 * tripped the breaker, whose trip's version may come back from Redis after the probe asks (once a
 * refused probe and a 10 s wait in vain under load; redis's {@code ProbeAfterOwnTripTest}).
 */
class FleetProbeGatewayTest {

    /** A hang guard, never a measure: generous for a machine busy with other builds. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration OPEN = Duration.ofSeconds(5);
    private static final String MODEL = "claude-haiku-4";
    private static final String UPSTREAM = "claude-haiku-4-5";
    private static final String BREAKER = "model:" + MODEL;

    private static RedisServerProcess redis;

    private final String keyPrefix = "fleet-probe-" + UUID.randomUUID() + ":";
    private final ManualClock clock = new ManualClock();
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

    /** Three gateways whose breakers open for {@link #OPEN} of the shared clock, sharing state on Redis. */
    private void startFleet() {
        for (int i = 0; i < 3; i++) {
            GatewayHarness harness = GatewayHarness.start(GatewayHarness.CONFIG.replace("resetTimeout: 300ms", "resetTimeout: 5s") + """
                    state:
                      store: redis
                      redis: { uri: "%s", keyPrefix: "%s" }
                    """.formatted(redis.uri(), keyPrefix), GatewayOptions.builder().port(0).clock(clock).build());
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

    /** Moves the shared clock to the end of the open time that {@code gateway} shows. */
    private void untilTheOpenTimeOf(Gateway gateway) {
        Instant openUntil = Instant.parse(gateway.breaker().getString("openUntil"));
        clock.advance(Duration.between(Instant.ofEpochMilli(clock.epochMillis()), openUntil));
    }

    private long upstreamCalls() {
        return fleet.stream().mapToLong(gateway -> gateway.harness.requestsFor(UPSTREAM)).sum();
    }

    /** One more request to the first gateway and two to each other one, all at once, beside the probe; their answers. */
    private List<Reply> concurrentRequestsBesideTheProbe() {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Reply>> replies = new ArrayList<>();
        for (Gateway gateway : List.of(fleet.get(0), fleet.get(1), fleet.get(1), fleet.get(2), fleet.get(2))) {
            replies.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return gateway.call();
            }, callers));
        }
        start.countDown();
        return replies.stream().map(CompletableFuture::join).toList();
    }

    /** The fleet's first request after the open time, to the first gateway: the probe; returns once it is upstream. */
    private CompletableFuture<Reply> probeUnderWay(long callsBefore) {
        CompletableFuture<Reply> probe = CompletableFuture.supplyAsync(() -> fleet.get(0).call(), callers);
        Eventually.await("the probe reaches the provider", WAIT, () -> upstreamCalls() == callsBefore + 1);
        return probe;
    }

    @Test
    void requestsOnEveryGatewayWhileTheProbeIsUnderWayAreRefusedAndItsSuccessClosesEveryGateway() {
        startFleet();
        tripThroughTheFirst();
        MockHold held = heldUpstreamAnswers(200);
        long callsBefore = upstreamCalls();
        untilTheOpenTimeOf(fleet.get(0));
        CompletableFuture<Reply> probe = probeUnderWay(callsBefore);

        List<Reply> beside = concurrentRequestsBesideTheProbe();
        held.release();

        assertThat(probe.join().status()).isEqualTo(200);
        assertThat(upstreamCalls() - callsBefore).as("one probe across the fleet").isEqualTo(1);
        assertThat(beside).allSatisfy(refused -> {
            assertThat(refused.status()).isEqualTo(503);
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
    void requestsOnEveryGatewayWhileTheProbeIsUnderWayAreRefusedAndItsFailureReopensEveryGateway() {
        startFleet();
        tripThroughTheFirst();
        MockHold held = heldUpstreamAnswers(500);
        long callsBefore = upstreamCalls();
        untilTheOpenTimeOf(fleet.get(0));
        CompletableFuture<Reply> probe = probeUnderWay(callsBefore);

        List<Reply> beside = concurrentRequestsBesideTheProbe();
        held.release();

        assertThat(probe.join().status()).isEqualTo(502);
        assertThat(beside).extracting(Reply::status).containsOnly(503);
        assertThat(upstreamCalls() - callsBefore).as("one probe across the fleet").isEqualTo(1);
        Eventually.await("every gateway opens again", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.went(CircuitState.HALF_OPEN, CircuitState.OPEN)));
        assertThat(fleet).allSatisfy(gateway -> assertThat(gateway.transitions()).last()
                .satisfies(event -> assertThat(event.reason()).contains("half-open probe failed")));
    }

    @Test
    void singleRequestsAreRefusedEverywhereUntilTheOpenTimeEndsAndTheFirstAfterItOnAnyGatewayIsTheProbe() {
        startFleet();
        tripThroughTheFirst();
        upstreamAnswers(200);
        long callsBefore = upstreamCalls();

        List<Reply> whileOpen = fleet.stream().map(Gateway::call).toList();
        untilTheOpenTimeOf(fleet.get(0));
        Reply probe = fleet.get(1).call();

        assertThat(whileOpen).allSatisfy(refused -> {
            assertThat(refused.status()).isEqualTo(503);
            assertThat(Long.parseLong(refused.header("retry-after"))).as("the open time left").isEqualTo(OPEN.toSeconds());
        });
        assertThat(probe.status()).as("the first request after the open time, on another gateway").isEqualTo(200);
        assertThat(upstreamCalls() - callsBefore).as("one upstream call: the probe").isEqualTo(1);
        Eventually.await("every gateway closes", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.state().equals("CLOSED")));
        assertThat(fleet).allSatisfy(gateway -> assertThat(gateway.call().status()).isEqualTo(200));
    }

    @Test
    void aFailedProbeReopensEveryGatewayAndTheFirstRequestAfterTheNewOpenTimeProbesAgainAndClosesIt() {
        startFleet();
        tripThroughTheFirst();
        upstreamAnswers(500);
        long callsBefore = upstreamCalls();
        untilTheOpenTimeOf(fleet.get(0));

        Reply failedProbe = fleet.get(1).call();
        Eventually.await("every gateway opens again", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.went(CircuitState.HALF_OPEN, CircuitState.OPEN)));
        List<Reply> whileReopened = fleet.stream().map(Gateway::call).toList();
        long failedProbes = upstreamCalls() - callsBefore;
        upstreamAnswers(200);
        untilTheOpenTimeOf(fleet.get(1));
        Reply probe = fleet.get(2).call();

        assertThat(failedProbe.status()).isEqualTo(502);
        assertThat(whileReopened).extracting(Reply::status).containsOnly(503);
        assertThat(failedProbes).as("one failed probe across the fleet").isEqualTo(1);
        assertThat(probe.status()).isEqualTo(200);
        assertThat(upstreamCalls() - callsBefore).as("then one successful probe").isEqualTo(2);
        Eventually.await("every gateway closes", WAIT,
                () -> fleet.stream().allMatch(gateway -> gateway.state().equals("CLOSED")));
    }

    @Test
    void withRedisFrozenEveryGatewayGoesOnAnsweringTripsAndRecoversAlone() {
        startFleet();
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
            untilTheOpenTimeOf(first);

            assertThat(first.call().status()).as("the probe, made alone without Redis").isEqualTo(200);
            assertThat(first.state()).isEqualTo("CLOSED");
        } finally {
            redis.resume();
        }
    }

    /**
     * Every gateway's upstream answers {@code status}; the first's (the probe's) once the returned hold is
     * released, so the probe is out while the requests beside it are decided, however long a busy machine
     * takes. The others answer at once: a request beside the probe that reached them would be counted.
     */
    private MockHold heldUpstreamAnswers(int status) {
        upstreamAnswers(status);
        return fleet.get(0).harness.mock.holdAnswers();
    }

    /** Every gateway's upstream answers {@code status} from now on. */
    private void upstreamAnswers(int status) {
        fleet.forEach(gateway -> gateway.harness.mock.defaultStep(MockStep.builder().status(status).build()));
    }
}
