package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The wire form keeps every field, whatever characters a name or reason holds, and takes nothing it could not have written. */
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

    private static final String VALID = "v=1&breaker=model%3Ax&state=OPEN&reason=r&until=0&origin=o&at=0";

    @Test
    void aRecordLongerThanAnyTheStoreWritesIsRefusedWithoutQuotingIt() {
        String huge = VALID + "&reason=" + "y".repeat(SharedStateCodec.MAX_RECORD_CHARS);

        assertThatThrownBy(() -> SharedStateCodec.decode(huge))
                .hasMessageContaining("over the limit of " + SharedStateCodec.MAX_RECORD_CHARS)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("yyy").hasSizeLessThan(200));
    }

    @Test
    void aVersionMoreThanADayAheadOfTheClockIsRefused() {
        long now = 1_767_225_600_000L;
        String ahead = VALID.replace("v=1", "v=" + (now * 1000 + SharedStateCodec.MAX_VERSION_AHEAD_MICROS + 1));
        String largest = VALID.replace("v=1", "v=" + Long.MAX_VALUE);

        assertThat(SharedStateCodec.decode(VALID.replace("v=1", "v=" + now * 1000), now).version()).isEqualTo(now * 1000);
        assertThatThrownBy(() -> SharedStateCodec.decode(ahead, now)).hasMessageContaining("more than a day ahead");
        assertThatThrownBy(() -> SharedStateCodec.decode(largest, now)).hasMessageContaining("more than a day ahead");
    }

    @Test
    void negativeVersionsAndCountsAndTooManyCountsAreRefused() {
        StringBuilder many = new StringBuilder(VALID);
        for (int i = 0; i <= SharedStateCodec.MAX_COUNTS; i++) {
            many.append("&c.trigger").append(i).append("=1");
        }

        assertThatThrownBy(() -> SharedStateCodec.decode(VALID.replace("v=1", "v=-5"))).hasMessageContaining("version");
        assertThatThrownBy(() -> SharedStateCodec.decode(VALID + "&c.consecutive5xx=-3")).hasMessageContaining("negative");
        assertThatThrownBy(() -> SharedStateCodec.decode(many.toString())).hasMessageContaining("counts, over the limit");
    }

    @Test
    void aStateThatNamesNoStateIsRefusedWithoutQuotingIt() {
        assertThatThrownBy(() -> SharedStateCodec.decode(VALID.replace("state=OPEN", "state=%0AWARN+forged")))
                .hasMessageContaining("names no state")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("forged"));
    }

    @Test
    void aLongReasonIsCutOnBothSides() {
        SharedBreakerState state = SharedBreakerState.unpublished("model:x", CircuitState.FORCED_OPEN, "z".repeat(10_000),
                Map.of(), 0L, "instance-a", 0L).withVersion(1);

        assertThat(SharedStateCodec.decode(SharedStateCodec.encode(state)).reason())
                .hasSize(SharedStateCodec.MAX_REASON_CHARS + 1).endsWith("…");
        assertThat(SharedStateCodec.decode(VALID.replace("reason=r", "reason=" + "z".repeat(5_000))).reason())
                .hasSize(SharedStateCodec.MAX_REASON_CHARS + 1);
    }
}
