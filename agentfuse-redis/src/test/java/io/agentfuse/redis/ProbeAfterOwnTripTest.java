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
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real redis-server: the instance that tripped a breaker asks for the probe lease on its first
 * call after the open time before its trip's version came back from Redis (on a busy machine the
 * publish's answer can come after the next call), so Redis answers with its own trip as a change
 * it missed. It asks again knowing it and probes (regression: the call was refused, and the
 * instance refused every call for a second with nobody probing; the gateway fleet test, on a manual
 * clock, waited in vain for its probe). The test holds Redis (SIGSTOP) while the trip and the call
 * are sent, so both reach it before either is answered; the store's command timeout outlasts that.
 */
class ProbeAfterOwnTripTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = "model:gpt-4o-mini";
    private static final Duration OPEN = Duration.ofMinutes(5);

    private static RedisServerProcess redis;

    private final String prefix = "own-trip-" + UUID.randomUUID() + ":";
    private final ManualClock clock = new ManualClock();
    private RedisStateStore store;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void theTrippingInstancesFirstCallAfterTheOpenTimeProbesThoughItAskedBeforeItsTripWasAnswered() {
        store = RedisStateStore.builder(redis.uri()).keyPrefix(prefix).commandTimeout(WAIT).build();
        CircuitBreaker tripper = CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(CircuitBreakerConfig.builder().trigger(Trigger.consecutive5xx(3)).resetTimeout(OPEN).build())
                .stateStore(store)
                .build()
                .breaker(MODEL);
        Eventually.await("the store connects to Redis", WAIT, store::isConnected);

        WaitingCall call;
        redis.pause();
        try {
            for (int i = 0; i < 3; i++) {
                tripper.onOutcome(tripper.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
            }
            clock.advance(OPEN);
            call = WaitingCall.on(tripper); // its lease script follows the trip's on the one connection
        } finally {
            redis.resume();
        }
        Eventually.await("the call is decided", WAIT, call::decided);

        assertThat(call.permitted()).as("the first call after the open time probes").isTrue();
        tripper.onOutcome(call.permit(), Outcome.SUCCESS, -1, RetryAfter.NONE);
        assertThat(tripper.state()).isEqualTo(CircuitState.CLOSED);
    }
}
