package io.agentfuse.core.internal;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

import static org.assertj.core.api.Assertions.assertThat;

/** The arithmetic of a deadline: time left, the fit rule, and the limit of a started attempt. */
class TimeLeftPropertyTest {

    private static final long HOUR = 3_600_000_000_000L;
    private static final long NONE = TimeLeft.NO_DEADLINE;

    @Property
    void theTimeLeftIsTheSpanUntilTheDeadlineAndNeverNegative(
            @ForAll @LongRange(min = -HOUR, max = HOUR) long start,
            @ForAll @LongRange(min = 0, max = HOUR) long span,
            @ForAll @LongRange(min = 0, max = 2 * HOUR) long elapsed) {
        long deadline = TimeLeft.deadlineAfter(start, span);

        long remaining = TimeLeft.remaining(deadline, start + elapsed);

        assertThat(remaining).isEqualTo(Math.max(0, span - elapsed));
    }

    @Property
    void aDeadlineTooFarToHoldIsNoDeadlineRatherThanAnOverflow(
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long now,
            @ForAll @LongRange(min = Long.MAX_VALUE / 2, max = Long.MAX_VALUE - 1) long span) {
        long deadline = TimeLeft.deadlineAfter(now, span);

        assertThat(deadline).isGreaterThanOrEqualTo(now);
        assertThat(TimeLeft.remaining(deadline, now)).isGreaterThanOrEqualTo(0L);
    }

    @Property
    void withoutADeadlineEverythingFits(@ForAll @LongRange(min = -1, max = Long.MAX_VALUE) long wait,
                                        @ForAll @LongRange(min = -1, max = Long.MAX_VALUE) long median) {
        assertThat(TimeLeft.fits(NONE, wait, median)).isTrue();
    }

    @Property
    void somethingFitsExactlyWhenItsWaitAndMedianEndBeforeTheDeadline(
            @ForAll @LongRange(min = 0, max = HOUR) long remaining,
            @ForAll @LongRange(min = 0, max = HOUR) long wait,
            @ForAll @LongRange(min = 0, max = HOUR) long median) {
        assertThat(TimeLeft.fits(remaining, wait, median)).isEqualTo(wait + median < remaining);
    }

    @Property
    void withNoMedianKnownAnyTimeLeftAfterTheWaitFits(@ForAll @LongRange(min = 0, max = HOUR) long remaining,
                                                      @ForAll @LongRange(min = 0, max = HOUR) long wait) {
        assertThat(TimeLeft.fits(remaining, wait, -1)).isEqualTo(wait < remaining);
    }

    @Property
    void moreTimeLeftNeverTurnsAFitIntoAMisfit(@ForAll @LongRange(min = 0, max = HOUR) long remaining,
                                               @ForAll @LongRange(min = 0, max = HOUR) long more,
                                               @ForAll @LongRange(min = 0, max = HOUR) long wait,
                                               @ForAll @LongRange(min = -1, max = HOUR) long median) {
        if (TimeLeft.fits(remaining, wait, median)) {
            assertThat(TimeLeft.fits(remaining + more, wait, median)).isTrue();
        }
    }

    @Property
    void aStartedAttemptsLimitNeverReachesPastTheDeadline(
            @ForAll @LongRange(min = -HOUR, max = HOUR) long now,
            @ForAll @LongRange(min = -HOUR, max = HOUR) long deadlineFromNow,
            @ForAll @LongRange(min = 1, max = HOUR) long timeout) {
        long deadline = now + deadlineFromNow;

        long limit = TimeLeft.attemptLimit(TimeLeft.remaining(deadline, now), timeout);

        assertThat(now + limit).isLessThanOrEqualTo(Math.max(now, deadline));
        assertThat(limit).isBetween(0L, timeout);
        assertThat(TimeLeft.cutByDeadline(limit, timeout)).isEqualTo(limit < timeout);
    }

    @Property
    void withoutADeadlineTheLimitIsTheTimeout(@ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long timeout) {
        assertThat(TimeLeft.attemptLimit(NONE, timeout)).isEqualTo(timeout);
        assertThat(TimeLeft.cutByDeadline(TimeLeft.attemptLimit(NONE, timeout), timeout)).isFalse();
    }
}
