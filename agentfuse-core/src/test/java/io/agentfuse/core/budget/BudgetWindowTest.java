package io.agentfuse.core.budget;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BudgetWindowTest {

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void aDayRunsFromOneUtcMidnightToTheNext() {
        BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));

        assertThat(day.startOf(at("2026-03-04T17:30:12.345Z"))).isEqualTo(at("2026-03-04T00:00:00Z"));
        assertThat(day.endOf(at("2026-03-04T17:30:12.345Z"))).isEqualTo(at("2026-03-05T00:00:00Z"));
        assertThat(day.startOf(at("2026-03-04T00:00:00Z"))).isEqualTo(at("2026-03-04T00:00:00Z"));
        assertThat(day.startOf(at("2026-03-04T23:59:59.999Z"))).isEqualTo(at("2026-03-04T00:00:00Z"));
    }

    @Test
    void twentyFourHoursAreTheSameWindowsAsADay() {
        long now = at("2026-07-01T09:10:00Z");

        assertThat(BudgetWindow.of(Duration.ofHours(24)).startOf(now)).isEqualTo(BudgetWindow.of(Duration.ofDays(1)).startOf(now));
    }

    @Test
    void anHourRunsFromTheHourToTheNext() {
        BudgetWindow hour = BudgetWindow.of(Duration.ofHours(1));

        assertThat(hour.startOf(at("2026-03-04T17:59:59.999Z"))).isEqualTo(at("2026-03-04T17:00:00Z"));
        assertThat(hour.endOf(at("2026-03-04T17:00:00Z"))).isEqualTo(at("2026-03-04T18:00:00Z"));
    }

    @Test
    void aDurationThatDividesADayIsAlignedToUtcMidnight() {
        BudgetWindow half = BudgetWindow.of(Duration.ofMinutes(30));
        BudgetWindow sixHours = BudgetWindow.of(Duration.ofHours(6));

        assertThat(half.startOf(at("2026-03-04T17:45:00Z"))).isEqualTo(at("2026-03-04T17:30:00Z"));
        assertThat(sixHours.startOf(at("2026-03-04T17:45:00Z"))).isEqualTo(at("2026-03-04T12:00:00Z"));
    }

    @Test
    void aWeekIsAlignedToTheEpochSoEveryInstanceAgreesOnIt() {
        BudgetWindow week = BudgetWindow.of(Duration.ofDays(7));
        long start = week.startOf(at("2026-03-04T17:45:00Z"));

        assertThat(start % Duration.ofDays(7).toMillis()).isZero();
        assertThat(week.endOf(at("2026-03-04T17:45:00Z")) - start).isEqualTo(Duration.ofDays(7).toMillis());
        assertThat(start).isLessThanOrEqualTo(at("2026-03-04T17:45:00Z"));
    }

    @Test
    void windowsShorterThanASecondOrNotInWholeMillisecondsAreRefused() {
        assertThatThrownBy(() -> BudgetWindow.of(Duration.ofMillis(999))).hasMessageContaining("at least 1s");
        assertThatThrownBy(() -> BudgetWindow.of(Duration.ofSeconds(2).plusNanos(5))).hasMessageContaining("whole milliseconds");
    }
}
