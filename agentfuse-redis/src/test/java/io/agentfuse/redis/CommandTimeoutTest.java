package io.agentfuse.redis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The command timeout a store and a ledger take from their URI: the {@code timeout} parameter of
 * Lettuce's URI syntax, which the builders used to override with 1 s without a word.
 */
class CommandTimeoutTest {

    @Test
    void aUriWithoutOneTakesOneSecondNotLettucesMinute() {
        assertThat(CommandTimeout.of("redis://127.0.0.1:6379")).isEqualTo(Duration.ofSeconds(1));
        assertThat(CommandTimeout.of("rediss://user:secret@cache.internal:6380/2?clientName=gw")).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aUriThatWritesOneIsTakenAtItsWord() {
        assertThat(CommandTimeout.of("redis://127.0.0.1:6379?timeout=500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(CommandTimeout.of("rediss://user:secret@cache.internal:6380/2?clientName=gw&TIMEOUT=5s"))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(CommandTimeout.of("redis://cache?timeout=1m#primary")).isEqualTo(Duration.ofMinutes(1));
        assertThat(CommandTimeout.of("redis://cache?timeout=1ms")).isEqualTo(Duration.ofMillis(1));
    }

    /**
     * Lettuce reads a bare number as milliseconds, what it cannot read as no timeout (its 60 s), and
     * twenty digits as an exception; past a minute, a hung Redis would hold its callers for nothing.
     */
    @ParameterizedTest
    @ValueSource(strings = {"3", "1.5s", "abc", "0s", "0", "-1s", "", "99999999999999999999s", "61s", "2m", "1h",
            "500us", "1000000ns"})
    void aTimeoutLettuceWouldMisreadIsRefusedWithTheValue(String written) {
        assertThatThrownBy(() -> CommandTimeout.of("redis://127.0.0.1:6379?timeout=" + written))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state.redis.uri's timeout must be a whole number with its unit (ms, s, m),"
                        + " from 1ms to 60s, like 500ms or 2s, but was '" + written + "'");
    }

    /** Lettuce would take the first of two and say nothing of the second. */
    @Test
    void aTimeoutWrittenTwiceIsRefused() {
        assertThatThrownBy(() -> CommandTimeout.of("redis://127.0.0.1:6379?timeout=5s&timeout=1s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("state.redis.uri writes its timeout twice");
    }

    @Test
    void bothBuildersRefuseABadTimeoutWhenTheyAreMade() {
        assertThatThrownBy(() -> RedisStateStore.builder("redis://127.0.0.1:6379?timeout=1.5s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("but was '1.5s'");
        assertThatThrownBy(() -> RedisBudgetLedger.builder("redis://127.0.0.1:6379?timeout=1.5s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("but was '1.5s'");
    }
}
