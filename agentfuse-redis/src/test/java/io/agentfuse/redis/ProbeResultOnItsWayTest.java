package io.agentfuse.redis;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instances on one real redis-server and one manual clock: an instance that asks Redis for the
 * probe lease after the prober's probe succeeded, but before the prober's close reached Redis, is
 * answered with the close and serves its call (regression: Redis found the lease still held, the
 * instance refused its call with 503 {@code circuit_open}, {@code Retry-After: 1}, and the close
 * reached it a few milliseconds later). The test orders the events itself: the asker's lease
 * script has run in Redis (a command sent after it on the same connection has been answered)
 * before the prober's close is sent. Open times move on the clock; nothing waits for time to pass.
 */
class ProbeResultOnItsWayTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = "model:gpt-4o-mini";
    private static final Duration OPEN = Duration.ofMinutes(5);

    private static RedisServerProcess redis;

    private final String prefix = "probe-result-" + UUID.randomUUID() + ":";
    private final ManualClock clock = new ManualClock();
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

    /** An instance whose lease answers wait for another instance's probe result as long as {@code probeResultWait}. */
    private CircuitBreaker instance(Duration probeResultWait) {
        RedisStateStore store = RedisStateStore.builder(redis.uri()).keyPrefix(prefix).probeResultWait(probeResultWait).build();
        stores.add(store);
        CircuitBreaker breaker = CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(CircuitBreakerConfig.builder().trigger(Trigger.consecutive5xx(3)).resetTimeout(OPEN).build())
                .stateStore(store)
                .build()
                .breaker(MODEL);
        Eventually.await("the store connects to Redis", WAIT, store::isConnected);
        return breaker;
    }

    /**
     * Trips the breaker on a third instance, waits until {@code prober} and {@code asker} have it open
     * (each has then seen the trip's version), and lets the open time pass.
     */
    private void tripElsewhereAndWaitOutTheOpenTime(CircuitBreaker prober, CircuitBreaker asker) {
        CircuitBreaker tripper = instance(Duration.ZERO);
        for (int i = 0; i < 3; i++) {
            tripper.onOutcome(tripper.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
        }
        Eventually.await("the others learn of the trip", WAIT,
                () -> prober.state() == CircuitState.OPEN && asker.state() == CircuitState.OPEN);
        clock.advance(OPEN);
    }

    /** The probe of {@code prober}, once Redis granted it the lease. */
    private static WaitingCall probeOf(CircuitBreaker prober) {
        WaitingCall probe = WaitingCall.on(prober);
        Eventually.await("the prober's call is decided", WAIT, probe::decided);
        assertThat(probe.permitted()).as("the first call of the fleet probes").isTrue();
        return probe;
    }

    /** Returns once Redis has run every command {@code store} sent so far: one more on the same connection is answered. */
    private static void afterRedisRanWhatWasSent(RedisStateStore store) throws Exception {
        store.read(MODEL).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void anInstanceThatAskedBeforeTheProbersCloseReachedRedisServesItsCall() throws Exception {
        CircuitBreaker prober = instance(WAIT);
        CircuitBreaker asker = instance(WAIT);
        tripElsewhereAndWaitOutTheOpenTime(prober, asker);
        WaitingCall probe = probeOf(prober);

        WaitingCall asking = WaitingCall.on(asker);
        afterRedisRanWhatWasSent(stores.get(1)); // the asker's lease script ran: Redis found the lease held
        prober.onOutcome(probe.permit(), Outcome.SUCCESS, -1, RetryAfter.NONE);

        Eventually.await("the asker's call is decided", WAIT, asking::decided);
        assertThat(asking.permitted()).as("the fleet is closed: the call is served").isTrue();
        assertThat(asker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void whileTheProbeGoesOnAnInstanceThatAsksIsRefusedOnceTheWaitIsOver() throws Exception {
        CircuitBreaker prober = instance(WAIT);
        CircuitBreaker asker = instance(Duration.ofMillis(50));
        tripElsewhereAndWaitOutTheOpenTime(prober, asker);
        WaitingCall probe = probeOf(prober);

        WaitingCall asking = WaitingCall.on(asker);
        Eventually.await("the asker's call is decided", WAIT, asking::decided);

        assertThat(asking.permitted()).as("one probe at a time while the breaker is really open").isFalse();
        assertThat(asker.currentRejection().message()).contains("another instance probes");
        prober.onOutcome(probe.permit(), Outcome.SUCCESS, -1, RetryAfter.NONE);
        Eventually.await("the close reaches the asker", WAIT, () -> asker.state() == CircuitState.CLOSED);
    }
}
