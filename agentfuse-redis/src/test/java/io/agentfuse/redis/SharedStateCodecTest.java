package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The wire form keeps every field, whatever characters a name or reason holds. */
class SharedStateCodecTest {

    @Test
    void aStateSurvivesTheRoundTripWithAwkwardCharacters() {
        SharedBreakerState state = new SharedBreakerState("tool:search/web_search&x=1", 1_733_050_000_000_001L,
                CircuitState.OPEN, "consecutive5xx: 3 in a row\n(threshold 3) 100% = bad", Map.of("consecutive5xx", 3L,
                "failureRate.calls", 12L), 1_767_225_900_000L, "instance-a", 1_767_225_600_000L);

        assertThat(SharedStateCodec.decode(SharedStateCodec.encode(state))).isEqualTo(state);
    }

    @Test
    void somethingElseOnTheChannelIsRefusedWithTheReason() {
        assertThatThrownBy(() -> SharedStateCodec.decode("v=1&breaker=model%3Ax&state=OPEN"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 'reason' is missing");
        assertThatThrownBy(() -> SharedStateCodec.decode("hello"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a shared breaker state");
    }
}
