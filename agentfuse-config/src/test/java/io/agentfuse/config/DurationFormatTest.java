package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class DurationFormatTest {

    @Test
    void onlyResetTimeoutTakesBareMilliseconds() {
        assertThat(DurationFormat.bareNumberUnit("resetTimeout")).isEqualTo(ChronoUnit.MILLIS);
        assertThat(DurationFormat.bareNumberUnit("timeout")).isEqualTo(ChronoUnit.SECONDS);
        assertThat(DurationFormat.bareNumberUnit("defaultTimeout")).isEqualTo(ChronoUnit.SECONDS);
        assertThat(DurationFormat.bareNumberUnit("firstTokenTimeout")).isEqualTo(ChronoUnit.SECONDS);
    }

    @Test
    void aDayIsWrittenD() {
        assertThat(DurationFormat.parse("1d", ChronoUnit.SECONDS)).contains(Duration.ofDays(1));
    }

    @Test
    void rejectsNegativeAndUnknownUnits() {
        assertThat(DurationFormat.parse("-5s", ChronoUnit.SECONDS)).isEmpty();
        assertThat(DurationFormat.parse("5w", ChronoUnit.SECONDS)).isEmpty();
        assertThat(DurationFormat.parse("5 minutes", ChronoUnit.SECONDS)).isEmpty();
        assertThat(DurationFormat.parse("", ChronoUnit.SECONDS)).isEmpty();
    }

    @Test
    void formatsInTheLargestExactUnit() {
        assertThat(DurationFormat.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(DurationFormat.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(DurationFormat.format(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(DurationFormat.format(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(DurationFormat.format(Duration.ofHours(48))).isEqualTo("2d");
        assertThat(DurationFormat.format(Duration.ZERO)).isEqualTo("0s");
    }

    @Property
    void formattedDurationsParseBackToThemselves(@ForAll @LongRange(min = 0, max = 10_000_000_000L) long millis) {
        Duration duration = Duration.ofMillis(millis);

        assertThat(DurationFormat.parse(DurationFormat.format(duration), ChronoUnit.SECONDS)).contains(duration);
    }
}
