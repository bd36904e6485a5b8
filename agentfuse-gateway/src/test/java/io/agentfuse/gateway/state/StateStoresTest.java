package io.agentfuse.gateway.state;

import io.agentfuse.config.ConfigLoader;
import io.agentfuse.config.StateConfig;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.redis.RedisStateStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's Redis store is built as {@code state.redis:} says. A store is made without reaching
 * Redis (it connects when the breakers' registry starts it), so no server is needed here; the
 * fleet tests run the stores on a real one.
 */
class StateStoresTest {

    private static StateConfig state(String yaml) {
        return ConfigLoader.parse(yaml, "state.yaml", Map.of()).state();
    }

    /** Regression: the wait for another instance's probe result could be set only on the store's builder. */
    @Test
    void theRedisStoreWaitsForAProbeResultAsLongAsTheConfigurationSays() {
        try (BreakerStateStore store = StateStores.open(state("""
                state:
                  store: redis
                  redis: { uri: "redis://127.0.0.1:6379", keyPrefix: "fleet-a:", probeResultWait: 2s }
                """)).orElseThrow()) {
            RedisStateStore redis = (RedisStateStore) store;
            assertThat(redis.probeResultWait()).isEqualTo(Duration.ofSeconds(2));
            assertThat(redis.keyPrefix()).isEqualTo("fleet-a:");
        }
    }

    @Test
    void withoutTheKeyTheStoreWaitsItsDefault() {
        try (BreakerStateStore store = StateStores.open(state("state: { store: redis }")).orElseThrow()) {
            assertThat(((RedisStateStore) store).probeResultWait()).isEqualTo(Duration.ofMillis(250));
        }
    }
}
