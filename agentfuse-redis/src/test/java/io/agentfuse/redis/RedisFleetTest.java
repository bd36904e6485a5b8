package io.agentfuse.redis;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.shared.FleetWindow;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RawRedis;
import io.agentfuse.redis.testing.RedisServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.within;

/** Registries ("instances") on one real redis-server behave as a fleet, and as alone when it is gone. */
class RedisFleetTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = "model:gpt-4o-mini";

    private static RedisServerProcess redis;

    private final String prefix = "test-" + UUID.randomUUID() + ":";
    private final List<RedisStateStore> stores = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeStores() {
        stores.forEach(RedisStateStore::close);
    }

    private CircuitBreakerRegistry instance() {
        RedisStateStore store = RedisStateStore.create(redis.uri(), prefix);
        stores.add(store);
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder()
                .defaultConfig(CircuitBreakerConfig.builder()
                        .trigger(Trigger.consecutive5xx(3))
                        .resetTimeout(Duration.ofMinutes(5))
                        .build())
                .stateStore(store)
                .build();
        Eventually.await("the store connects to Redis", WAIT, store::isConnected);
        return registry;
    }

    private static RedisStateStore storeOf(CircuitBreakerRegistry registry) {
        return (RedisStateStore) registry.stateStore().orElseThrow();
    }

    private static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < 3; i++) {
            breaker.onOutcome(breaker.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
        }
    }

    @Test
    void aTripOnOneInstanceOpensTheSameBreakerOnTheOthersWithItsEvidence() {
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        CircuitBreakerRegistry c = instance();
        CircuitBreaker onB = b.breaker(MODEL);
        CircuitBreaker onC = c.breaker(MODEL);

        trip(a.breaker(MODEL));

        Eventually.await("B and C open", WAIT, () -> onB.state() == CircuitState.OPEN && onC.state() == CircuitState.OPEN);
        assertThat(onB.snapshot().reason()).isEqualTo(a.breaker(MODEL).snapshot().reason());
        assertThat(onB.snapshot().counts()).containsEntry("consecutive5xx", 3L);
        // the same instant, read through two system clocks' conversions of monotonic time
        assertThat(onC.snapshot().openUntil()).isCloseTo(a.breaker(MODEL).snapshot().openUntil(), within(1, ChronoUnit.SECONDS));
    }

    @Test
    void anInstanceThatStartsLaterLearnsOfTheTripWhenItMakesTheBreaker() {
        CircuitBreakerRegistry a = instance();
        trip(a.breaker(MODEL));
        Eventually.await("A's trip is in Redis", WAIT, () -> rawGet(prefix + "breaker:" + MODEL) != null);

        CircuitBreaker late = instance().breaker(MODEL);

        Eventually.await("the late instance opens", WAIT, () -> late.state() == CircuitState.OPEN);
    }

    @Test
    void operatorActionsOnOneInstanceApplyOnTheOthers() {
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        CircuitBreaker onB = b.breaker(MODEL);

        a.breaker(MODEL).forceOpen("maintenance");
        Eventually.await("B is forced open", WAIT, () -> onB.state() == CircuitState.FORCED_OPEN);
        assertThat(onB.snapshot().reason()).isEqualTo("maintenance");

        onB.close("maintenance over");
        Eventually.await("A is closed", WAIT, () -> a.breaker(MODEL).state() == CircuitState.CLOSED);
    }

    @Test
    void aRepeatedOrOlderMessageChangesNothing() {
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        CircuitBreaker onB = b.breaker(MODEL);
        CircuitBreaker marker = b.breaker("model:marker");
        a.breaker(MODEL).forceOpen("maintenance");
        Eventually.await("B is forced open", WAIT, () -> onB.state() == CircuitState.FORCED_OPEN);
        String forced = rawGet(prefix + "breaker:" + MODEL);
        a.breaker(MODEL).close("maintenance over");
        Eventually.await("B is closed", WAIT, () -> onB.state() == CircuitState.CLOSED);
        String closed = rawGet(prefix + "breaker:" + MODEL);

        rawPublish(forced);
        rawPublish(forced);
        rawPublish(closed);
        a.breaker("model:marker").forceOpen("marks that B has read every message before it");

        Eventually.await("B read the marker", WAIT, () -> marker.state() == CircuitState.FORCED_OPEN);
        assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(SharedStateCodec.decode(forced).version()).isLessThan(SharedStateCodec.decode(closed).version());
    }

    @Test
    void withoutRedisEveryInstanceGoesOnAloneAndTheFleetResyncsWhenItReturns() {
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        CircuitBreaker onB = b.breaker(MODEL);
        RedisStateStore storeOfA = storeOf(a);

        redis.kill();
        try {
            Eventually.await("A notices", WAIT, () -> !storeOfA.isConnected());
            assertThatCode(() -> {
                trip(a.breaker(MODEL));
                a.breaker("model:other").forceOpen("during the outage");
                a.breaker("model:third").forceOpen("during the outage");
                a.breaker("model:fourth").forceOpen("during the outage");
            }).doesNotThrowAnyException();
            assertThat(a.breaker(MODEL).state()).isEqualTo(CircuitState.OPEN);
            assertThat(a.breaker("model:healthy").acquire()).isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
            Eventually.await("the store's breaker opens", WAIT, () -> storeOfA.breaker().state() == CircuitState.OPEN);
            assertThat(onB.state()).isEqualTo(CircuitState.CLOSED);
        } finally {
            redis.restart();
        }

        Eventually.await("B learns of A's trip", Duration.ofSeconds(10), () -> onB.state() == CircuitState.OPEN);
        assertThat(storeOfA.breaker().state()).isEqualTo(CircuitState.CLOSED);
        assertThat(onB.snapshot().counts()).containsEntry("consecutive5xx", 3L);
    }

    @Test
    void aRedisThatHangsCostsCallersNothingAndItsChangesArriveWhenItGoesOn() {
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        List<CircuitBreaker> onB = List.of(b.breaker("model:one"), b.breaker("model:two"), b.breaker("model:three"));
        RedisStateStore storeOfA = storeOf(a);

        redis.pause();
        try {
            for (CircuitBreaker breaker : onB) {
                trip(a.breaker(breaker.name()));
                assertThat(a.breaker(breaker.name()).state()).isEqualTo(CircuitState.OPEN);
            }
            Eventually.await("the store's breaker opens on timeouts", WAIT, () -> storeOfA.breaker().state() == CircuitState.OPEN);
            assertThat(a.breaker("model:healthy").acquire()).isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
        } finally {
            redis.resume();
        }

        Eventually.await("B learns of A's trips", WAIT, () -> onB.stream().allMatch(breaker -> breaker.state() == CircuitState.OPEN));
    }

    @Test
    void aFailureRateNoInstanceReachesAloneTripsTheBreakerOnEveryInstance() {
        CircuitBreakerConfig rate = CircuitBreakerConfig.builder()
                .trigger(Trigger.failureRate(Trigger.Window.ofCalls(20), 10, 0.5))
                .resetTimeout(Duration.ofMinutes(5))
                .build();
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        CircuitBreaker onA = a.breaker(MODEL, rate);
        CircuitBreaker onB = b.breaker(MODEL, rate);

        for (CircuitBreaker breaker : List.of(onA, onB)) {
            for (int i = 0; i < 6; i++) {
                breaker.onOutcome(breaker.acquire(), i < 4 ? Outcome.SERVER_ERROR : Outcome.SUCCESS, -1, RetryAfter.NONE);
            }
        }
        assertThat(onA.state()).as("6 calls each, under minCalls 10").isEqualTo(CircuitState.CLOSED);

        Eventually.await("the fleet's 8 failures of 12 calls open both", WAIT,
                () -> onA.state() == CircuitState.OPEN && onB.state() == CircuitState.OPEN);
        assertThat(onA.snapshot().reason() + onB.snapshot().reason()).contains("failureRate across the fleet: 8 of 12 calls");
    }

    @Test
    void windowsAddUpPerGenerationOfTheBreakersSharedState() throws Exception {
        RedisStateStore store = storeOf(instance());

        FleetWindow first = store.shareWindow(MODEL, "failureRate", 5, "a", 6, 4).toCompletableFuture().get(5, TimeUnit.SECONDS);
        FleetWindow both = store.shareWindow(MODEL, "failureRate", 5, "b", 6, 4).toCompletableFuture().get(5, TimeUnit.SECONDS);
        FleetWindow after = store.shareWindow(MODEL, "failureRate", 6, "a", 1, 1).toCompletableFuture().get(5, TimeUnit.SECONDS);

        assertThat(first).isEqualTo(new FleetWindow(6, 4));
        assertThat(both).isEqualTo(new FleetWindow(12, 8));
        assertThat(after).as("b's window was counted before the change").isEqualTo(new FleetWindow(1, 1));
    }

    @Test
    void theFirstCallAfterTheOpenTimeProbesAloneAndItsResultClosesTheOthers() {
        CircuitBreakerConfig shortOpen = CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(3))
                .resetTimeout(Duration.ofMillis(200))
                .build();
        CircuitBreakerRegistry a = instance();
        CircuitBreakerRegistry b = instance();
        CircuitBreaker onA = a.breaker(MODEL, shortOpen);
        CircuitBreaker onB = b.breaker(MODEL, shortOpen);
        trip(onA);
        Eventually.await("B opens", WAIT, () -> onB.state() != CircuitState.CLOSED);
        Eventually.await("both half-open", WAIT,
                () -> onA.state() == CircuitState.HALF_OPEN && onB.state() == CircuitState.HALF_OPEN);

        WaitingCall first = WaitingCall.on(onB);
        Eventually.await("B's call is decided", WAIT, first::decided);
        WaitingCall second = WaitingCall.on(onA);
        Eventually.await("A's call is decided", WAIT, second::decided);

        assertThat(first.permitted()).as("the first call of the fleet probes").isTrue();
        assertThat(second.permitted()).as("one probe across the fleet").isFalse();
        onB.onOutcome(first.permit(), Outcome.SUCCESS, -1, RetryAfter.NONE);
        Eventually.await("A closes", WAIT, () -> onA.state() == CircuitState.CLOSED);
        assertThat(rawGet(prefix + "probe:" + MODEL)).as("the close ended the lease").isNull();
    }

    @Test
    void aProbeAskedOfARedisThatHangsIsDecidedWithinTheCommandTimeoutAndMadeAlone() {
        CircuitBreakerConfig shortOpen = CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(3))
                .resetTimeout(Duration.ofMillis(200))
                .build();
        CircuitBreaker onA = instance().breaker(MODEL, shortOpen);
        trip(onA);

        redis.pause();
        try {
            Eventually.await("A half-opens", WAIT, () -> onA.state() == CircuitState.HALF_OPEN);
            WaitingCall call = WaitingCall.on(onA);
            Eventually.await("the call is decided without Redis", WAIT, call::decided);

            assertThat(call.permitted()).isTrue();
        } finally {
            redis.resume();
        }
    }

    private String rawGet(String key) {
        try (RawRedis raw = new RawRedis(redis.uri())) {
            return raw.get(key);
        }
    }

    private void rawPublish(String message) {
        try (RawRedis raw = new RawRedis(redis.uri())) {
            raw.publish(prefix + "breakers", message);
        }
    }
}
