package io.agentfuse.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The command timeout of the fleet's Redis is written in {@code state.redis.uri}, as Lettuce reads it
 * ({@code ?timeout=500ms}); one Lettuce would misread is an error at its line, before anything starts.
 */
class RedisUriTimeoutConfigTest {

    private static AgentfuseConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "fleet.yaml", Map.of());
    }

    @Test
    void aTimeoutWithItsUnitIsKeptInTheUri() {
        assertThat(parse("state: { store: redis, redis: { uri: \"redis://cache:6379/2?timeout=500ms\" } }").state().redis().uri())
                .isEqualTo("redis://cache:6379/2?timeout=500ms");
        assertThat(parse("state: { redis: { uri: \"rediss://:pw@cache:6380?clientName=gw&TIMEOUT=2s\" } }").state().redis().uri())
                .isEqualTo("rediss://:pw@cache:6380?clientName=gw&TIMEOUT=2s");
    }

    @Test
    void aTimeoutLettuceWouldMisreadIsAnErrorAtTheUrisLine() {
        for (String written : new String[] {"1.5s", "3", "0s", "abc", "", "99999999999999999999s", "61s", "1h", "500us"}) {
            ConfigException failure = catchThrowableOfType(ConfigException.class,
                    () -> parse("state:\n  store: redis\n  redis:\n    uri: \"redis://cache:6379?timeout=" + written + "\"\n"));

            assertThat(failure.errors()).as(written).singleElement().satisfies(error -> {
                assertThat(error.path()).isEqualTo("state.redis.uri");
                assertThat(error.line()).isEqualTo(4);
                assertThat(error.message()).isEqualTo("its timeout (the command timeout) must be a whole number"
                        + " with its unit (ms, s, m), from 1ms to 60s, like 500ms or 2s, but was \"" + written + "\"");
            });
        }
    }

    @Test
    void aTimeoutWrittenTwiceIsAnError() {
        ConfigException failure = catchThrowableOfType(ConfigException.class,
                () -> parse("state:\n  redis: { uri: \"redis://cache:6379?timeout=5s&timeout=1s\" }\n"));

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("state.redis.uri");
            assertThat(error.message()).isEqualTo("writes its timeout twice");
        });
    }
}
