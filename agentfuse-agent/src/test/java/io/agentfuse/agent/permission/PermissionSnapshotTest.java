package io.agentfuse.agent.permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.ManualClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PermissionSnapshotTest {

    private static final ToolCall BASH = new ToolCall("Bash", "git push");

    private final ManualClock clock = new ManualClock();

    private PermissionBreaker breaker(PermissionConfig config, ManualClock clock) {
        return PermissionBreaker.builder().config(config).clock(clock).build();
    }

    @Test
    void roundTripsThroughItsMapForm() {
        // Given an open breaker with counts in two categories
        PermissionBreaker breaker = breaker(PermissionConfig.defaults(), clock);
        for (int i = 0; i < 3; i++) {
            breaker.recordDenied(BASH);
        }
        breaker.recordDenied(ToolCall.of("Edit"));
        PermissionSnapshot snapshot = breaker.snapshot();

        // When it is written as a map and read back
        PermissionSnapshot readBack = PermissionSnapshot.fromMap(snapshot.toMap());

        // Then nothing is lost
        assertThat(readBack).isEqualTo(snapshot);
        assertThat(snapshot.toMap()).containsEntry("state", "OPEN")
                .containsEntry("blockedCategories", List.of("Bash"))
                .containsEntry("totalDenials", 4)
                .containsEntry("openedAtEpochMillis", ManualClock.DEFAULT_EPOCH_MILLIS);
    }

    @Test
    void readsNumbersOfAnyTypeAsAJsonMapperWouldGiveThem() {
        Map<String, Object> json = new HashMap<>();
        json.put("state", "OPEN");
        json.put("blockedCategories", List.of("Bash"));
        json.put("consecutiveDenials", Map.of("Bash", 3L));
        json.put("totalDenials", 3.0);
        json.put("openReason", "3 consecutive denials of Bash");
        json.put("openedAtEpochMillis", 1_767_225_600_000.0);

        PermissionSnapshot snapshot = PermissionSnapshot.fromMap(json);

        assertThat(snapshot).isEqualTo(new PermissionSnapshot(PermissionState.OPEN, List.of("Bash"),
                Map.of("Bash", 3), 3, "3 consecutive denials of Bash", 1_767_225_600_000L));
    }

    @Test
    void restoredBreakerDecidesAsTheOriginalDid() {
        PermissionBreaker original = breaker(PermissionConfig.defaults(), clock);
        for (int i = 0; i < 3; i++) {
            original.recordDenied(BASH);
        }
        PermissionBreaker resumed = breaker(PermissionConfig.defaults(), new ManualClock());

        resumed.restore(PermissionSnapshot.fromMap(original.snapshot().toMap()));

        PermissionDecision decision = resumed.decide(BASH);
        assertThat(decision.verdict()).isEqualTo(Verdict.DENY);
        assertThat(decision.reason()).contains("3 consecutive denials of Bash");
        assertThat(resumed.decide(ToolCall.of("Read")).verdict()).isEqualTo(Verdict.ASK);
    }

    @Test
    void restoredBreakerCountsTimeAlreadySpentOpenTowardsTimedHalfOpen() {
        // Given a breaker that has been open for three of its five minutes when saved
        PermissionConfig config = PermissionConfig.builder().halfOpenAfter(Duration.ofMinutes(5)).build();
        PermissionBreaker original = breaker(config, clock);
        for (int i = 0; i < 3; i++) {
            original.recordDenied(BASH);
        }
        clock.advance(Duration.ofMinutes(3));
        PermissionSnapshot saved = original.snapshot();

        // When another process resumes it at the same wall time
        ManualClock later = new ManualClock(clock.epochMillis());
        PermissionBreaker resumed = breaker(config, later);
        resumed.restore(saved);

        // Then it half-opens after the remaining two minutes
        later.advance(Duration.ofMinutes(2).minusMillis(1));
        assertThat(resumed.state()).isEqualTo(PermissionState.OPEN);
        later.advanceMillis(1);
        assertThat(resumed.state()).isEqualTo(PermissionState.HALF_OPEN);
    }

    @Test
    void closedSnapshotHasNoOpenTime() {
        PermissionSnapshot snapshot = breaker(PermissionConfig.defaults(), clock).snapshot();

        assertThat(snapshot.openedAtEpochMillis()).isNull();
        assertThat(snapshot.toMap()).containsOnlyKeys("state", "blockedCategories", "consecutiveDenials", "totalDenials");
    }

    @Test
    void rejectsAnUnknownStateNamingTheField() {
        Map<String, Object> map = new HashMap<>(breaker(PermissionConfig.defaults(), clock).snapshot().toMap());
        map.put("state", "AJAR");

        assertThatThrownBy(() -> PermissionSnapshot.fromMap(map))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state must be one of [CLOSED, OPEN, HALF_OPEN], but was AJAR");
    }

    @Test
    void rejectsAMissingCountNamingTheField() {
        Map<String, Object> map = new HashMap<>(breaker(PermissionConfig.defaults(), clock).snapshot().toMap());
        map.remove("totalDenials");

        assertThatThrownBy(() -> PermissionSnapshot.fromMap(map))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("totalDenials must be a number, but was null");
    }
}
