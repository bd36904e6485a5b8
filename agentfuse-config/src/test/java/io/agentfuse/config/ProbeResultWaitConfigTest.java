package io.agentfuse.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code state.redis.probeResultWait}: how long a fleet instance's call waits for the probe result of
 * the instance that holds a breaker's probe lease; it was only a builder setting of the Redis store.
 * Zero refuses at once; more than the lease, which the wait could never outlast, is an error that
 * names the key and its line.
 */
class ProbeResultWaitConfigTest {

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "fleet.yaml", Map.of());
    }

    @Test
    void defaultsToTheStoresOwnWait() {
        assertThat(parse("{}").state().redis().probeResultWait()).isEqualTo(Duration.ofMillis(250));
        assertThat(ConfigDefaults.PROBE_RESULT_WAIT).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void isReadUnderStateRedis() {
        assertThat(parse("state: { store: redis, redis: { probeResultWait: 2s } }").state().redis().probeResultWait())
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(parse("state: { redis: { probeResultWait: 0s } }").state().redis().probeResultWait())
                .as("zero: refused at once, as before the wait").isZero();
        assertThat(parse("state: { redis: { probeResultWait: 2m } }").state().redis().probeResultWait())
                .as("as long as the lease").isEqualTo(ConfigDefaults.PROBE_LEASE);
    }

    @Test
    void aWaitPastTheLeaseIsAnErrorAtItsLine() {
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> parse("state:\n  store: redis\n  redis:\n    probeResultWait: 5m\n"));

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("state.redis.probeResultWait");
            assertThat(error.line()).isEqualTo(4);
            assertThat(error.message()).isEqualTo(
                    "must be at most 2m (the probe lease, a breaker's probeTimeout), but was 5m");
        });
    }

    @Test
    void aNegativeWaitIsAnError() {
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> parse("state:\n  redis: { probeResultWait: -1s }\n"));

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("state.redis.probeResultWait");
            assertThat(error.line()).isEqualTo(2);
        });
    }
}
