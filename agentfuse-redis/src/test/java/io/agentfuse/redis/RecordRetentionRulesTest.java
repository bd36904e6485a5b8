package io.agentfuse.redis;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The TTL each kind of record gets: none that could end a trip or an operator's state early. */
class RecordRetentionRulesTest {

    private static final long AT = 1_767_225_600_000L;
    private static final Duration KEEP = Duration.ofHours(6);

    private final RecordRetention retention = new RecordRetention(KEEP);

    private static SharedBreakerState change(CircuitState state, long untilEpochMillis) {
        return SharedBreakerState.unpublished("model:m", state, "why", Map.of(), untilEpochMillis, "instance", AT);
    }

    @Test
    void aCloseIsKeptForTheRetentionATripForItsOpenTimeAndTheRetentionOperatorStatesForGood() {
        assertThat(retention.ttlMillis(change(CircuitState.CLOSED, 0L))).isEqualTo(KEEP.toMillis());
        assertThat(retention.ttlMillis(change(CircuitState.OPEN, AT + Duration.ofMinutes(5).toMillis())))
                .isEqualTo(Duration.ofMinutes(5).plus(KEEP).toMillis());
        assertThat(retention.ttlMillis(change(CircuitState.FORCED_OPEN, 0L))).as("no expiry").isZero();
        assertThat(retention.ttlMillis(change(CircuitState.DISABLED, 0L))).as("no expiry").isZero();
    }

    @Test
    void aTripWithoutAnOpenTimeLeftIsKeptForTheRetentionAndOneOfOverAYearForGood() {
        assertThat(retention.ttlMillis(change(CircuitState.OPEN, 0L))).as("its state moved on before it was shared")
                .isEqualTo(KEEP.toMillis());
        assertThat(retention.ttlMillis(change(CircuitState.OPEN, AT + Duration.ofDays(2 * 365).toMillis())))
                .as("no TTL that Redis could refuse or that could end it early").isZero();
        assertThat(retention.ttlMillis(change(CircuitState.OPEN, Long.MAX_VALUE))).isZero();
    }
}
