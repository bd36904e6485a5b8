package io.agentfuse.redis;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.StateTransition;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long a trip takes to reach another instance. The bound asserted is a hang guard (30 s, so a busy
 * machine cannot fail it); the measured percentiles are written to the test's output.
 */
class PropagationTest {

    private static final int TRIPS = 100;

    @Test
    void everyTripReachesTheOtherInstanceAndTheTimesAreReported() {
        try (RedisServerProcess redis = RedisServerProcess.start();
             RedisStateStore storeOfA = RedisStateStore.create(redis.uri());
             RedisStateStore storeOfB = RedisStateStore.create(redis.uri())) {
            CircuitBreakerRegistry a = registry(storeOfA);
            CircuitBreakerRegistry b = registry(storeOfB);
            ConcurrentHashMap<String, Long> openedOnB = new ConcurrentHashMap<>();
            b.addListener(new CircuitBreakerListener() {
                @Override
                public void onStateTransition(StateTransition event) {
                    if (event.to() == CircuitState.OPEN) {
                        openedOnB.putIfAbsent(event.breaker(), System.nanoTime());
                    }
                }
            });
            Eventually.await("both stores connect", Duration.ofSeconds(30), () -> storeOfA.isConnected() && storeOfB.isConnected());

            long[] millis = new long[TRIPS];
            for (int i = 0; i < TRIPS; i++) {
                String name = "model:m" + i;
                b.breaker(name);
                CircuitBreaker onA = a.breaker(name);
                onA.onOutcome(onA.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
                long tripped = System.nanoTime();
                onA.onOutcome(onA.acquire(), Outcome.SERVER_ERROR, -1, RetryAfter.NONE);
                Eventually.await(name + " opens on B", Duration.ofSeconds(30), () -> openedOnB.containsKey(name));
                millis[i] = (openedOnB.get(name) - tripped) / 1_000_000L;
            }

            Arrays.sort(millis);
            System.out.printf("trip propagation over %d trips: p50 %d ms, p95 %d ms, max %d ms%n",
                    TRIPS, millis[TRIPS / 2], millis[TRIPS * 95 / 100], millis[TRIPS - 1]);
            assertThat(openedOnB).hasSize(TRIPS);
        }
    }

    private static CircuitBreakerRegistry registry(RedisStateStore store) {
        return CircuitBreakerRegistry.builder()
                .defaultConfig(CircuitBreakerConfig.builder().trigger(Trigger.consecutive5xx(2)).build())
                .stateStore(store)
                .build();
    }
}
