package io.agentfuse.core.breaker;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/** {@link OpenBackoff#openNanos} is a pure function; these are the promises of its Javadoc. */
class OpenBackoffPropertyTest {

    /** One day in nanoseconds, as a constant that annotations accept. */
    private static final long ONE_DAY = 86_400_000_000_000L;

    @Property
    void theFirstTripOpensForTheResetTimeout(@ForAll @LongRange(min = 1, max = ONE_DAY) long reset,
                                              @ForAll @DoubleRange(min = 1.0, max = 10.0) double multiplier,
                                              @ForAll @DoubleRange(min = 0.0, max = 1.0, maxIncluded = false) double unit) {
        OpenBackoff backoff = new OpenBackoff(multiplier, Duration.ofDays(2), 0.0);

        assertThat(backoff.openNanos(reset, 1, unit)).isEqualTo(reset);
    }

    @Property
    void withoutJitterTheOpenTimeGrowsByTheMultiplierUpToTheCap(
            @ForAll @LongRange(min = 1_000_000, max = ONE_DAY) long reset,
            @ForAll @IntRange(min = 1, max = 40) int trip,
            @ForAll @DoubleRange(min = 1.0, max = 4.0) double multiplier,
            @ForAll @LongRange(min = 1, max = 7 * ONE_DAY) long capNanos) {
        OpenBackoff backoff = new OpenBackoff(multiplier, Duration.ofNanos(capNanos), 0.0);
        double expected = Math.min(reset * Math.pow(multiplier, trip - 1), (double) capNanos);

        long open = backoff.openNanos(reset, trip, 0.5);

        assertThat((double) open).isCloseTo(expected, offset(Math.max(1.0, expected * 1e-9)));
        assertThat(open).isLessThanOrEqualTo(capNanos);
    }

    @Property
    void theOpenTimeNeverShrinksFromOneTripToTheNext(
            @ForAll @LongRange(min = 1, max = ONE_DAY) long reset,
            @ForAll @IntRange(min = 1, max = 200) int trip,
            @ForAll @DoubleRange(min = 1.0, max = 10.0) double multiplier) {
        OpenBackoff backoff = new OpenBackoff(multiplier, Duration.ofDays(30), 0.0);

        assertThat(backoff.openNanos(reset, trip + 1, 0.0)).isGreaterThanOrEqualTo(backoff.openNanos(reset, trip, 0.0));
    }

    @Property
    void jitterSpreadsTheOpenTimeByAtMostItsFraction(
            @ForAll @LongRange(min = 1_000_000, max = ONE_DAY) long reset,
            @ForAll @IntRange(min = 1, max = 20) int trip,
            @ForAll @DoubleRange(min = 0.0, max = 0.99) double jitter,
            @ForAll @DoubleRange(min = 0.0, max = 1.0, maxIncluded = false) double unit) {
        OpenBackoff backoff = new OpenBackoff(2.0, Duration.ofDays(3), jitter);
        double capped = new OpenBackoff(2.0, Duration.ofDays(3), 0.0).openNanos(reset, trip, unit);

        long open = backoff.openNanos(reset, trip, unit);

        assertThat(open).isBetween((long) Math.floor(capped * (1 - jitter)) - 1, (long) Math.ceil(capped * (1 + jitter)));
        assertThat(open).isPositive();
    }

    @Property
    void noneKeepsTheResetTimeoutOnEveryTrip(@ForAll @LongRange(min = 1, max = ONE_DAY) long reset,
                                              @ForAll @IntRange(min = 1, max = 1000) int trip) {
        assertThat(OpenBackoff.NONE.openNanos(reset, trip, 0.7)).isEqualTo(reset);
    }

    @Property
    void hugeTripCountsSaturateAtTheCap(@ForAll @IntRange(min = 1_000, max = Integer.MAX_VALUE) int trip) {
        OpenBackoff backoff = new OpenBackoff(2.0, Duration.ofMinutes(30), 0.0);

        assertThat(backoff.openNanos(Duration.ofMinutes(5).toNanos(), trip, 0.0))
                .isEqualTo(Duration.ofMinutes(30).toNanos());
    }
}
