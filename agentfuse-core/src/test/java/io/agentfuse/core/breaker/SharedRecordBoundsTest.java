package io.agentfuse.core.breaker;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.shared.SharedBreakerState;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shared record is input like any other: whatever its times say, it keeps a breaker open no
 * longer than the breaker's own rules would (regressions: a record OPEN until the year 2200 kept
 * breakers open for good; one until the year 3000 overflowed and half-opened at once).
 */
class SharedRecordBoundsTest {

    private static final String MODEL = "model:gpt-4o-mini";
    private static final Duration OPEN = Duration.ofMinutes(5);

    private final ManualClock clock = new ManualClock();
    private final LoopbackStateStores store = new LoopbackStateStores(clock);
    private final CircuitBreaker breaker = CircuitBreakerRegistry.builder()
            .clock(clock)
            .defaultConfig(CircuitBreakerConfig.builder().trigger(Trigger.consecutive5xx(3)).resetTimeout(OPEN).build())
            .stateStore(store.connect())
            .build()
            .breaker(MODEL);

    private void receive(long atEpochMillis, long untilEpochMillis) {
        store.deliver();
        store.broadcast(new SharedBreakerState(MODEL, 1_000, CircuitState.OPEN, "forged", Map.of(), untilEpochMillis,
                "another-instance", atEpochMillis));
        store.deliver();
    }

    private static long epochMillis(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void aTripUntilTheYear2200KeepsTheBreakerOpenNoLongerThanItsOwnResetTimeout() {
        receive(clock.epochMillis(), epochMillis("2200-01-01T00:00:00Z"));
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);

        clock.advance(OPEN);

        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aTripUntilTheYear3000DoesNotOverflowIntoAnOpenTimeThatHasPassed() {
        receive(clock.epochMillis(), epochMillis("3000-01-01T00:00:00Z"));

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        clock.advance(OPEN);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aPeerWhoseClockIsAnHourAheadOpensTheBreakerForItsTripsOwnLength() {
        long peerNow = clock.epochMillis() + Duration.ofHours(1).toMillis();

        receive(peerNow, peerNow + Duration.ofMinutes(2).toMillis());

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        clock.advance(Duration.ofMinutes(2));
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aTripStartedAtTheBeginningOfTimeIsBoundedToo() {
        receive(Long.MIN_VALUE, Long.MAX_VALUE);

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        clock.advance(OPEN);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aTripWhoseEndPrecedesItsStartIsNotApplied() {
        receive(clock.epochMillis(), clock.epochMillis() - 1);

        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
}
