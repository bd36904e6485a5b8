package io.agentfuse.core.breaker;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SharedOpenTime#remainingMillis} is a pure function; these are the promises of its Javadoc. */
class SharedOpenTimePropertyTest {

    private static final long CENTURY_MILLIS = 3_155_760_000_000L;

    @Property
    void theOpenTimeLeftIsNeverNegativeNorLongerThanTheBreakersOwn(@ForAll long until, @ForAll long at, @ForAll long now,
                                                                    @ForAll @LongRange(min = 1, max = CENTURY_MILLIS) long longest) {
        assertThat(SharedOpenTime.remainingMillis(until, at, now, longest)).isBetween(0L, longest);
    }

    @Property
    void theOpenTimeLeftIsNoLongerThanTheTripItselfNorThanItsEndFromNow(@ForAll long until, @ForAll long at, @ForAll long now,
                                                                        @ForAll @LongRange(min = 1, max = CENTURY_MILLIS) long longest) {
        long left = SharedOpenTime.remainingMillis(until, at, now, longest);

        assertThat(left).isLessThanOrEqualTo(Math.max(0L, SharedOpenTime.minus(until, at)));
        assertThat(left).isLessThanOrEqualTo(Math.max(0L, SharedOpenTime.minus(until, now)));
    }

    @Property
    void subtractionSaturatesInsteadOfWrappingAround(@ForAll long a, @ForAll long b) {
        long difference = SharedOpenTime.minus(a, b);

        assertThat(Long.signum(difference)).isEqualTo(Long.signum(Long.compare(a, b)));
        assertThat(difference).isEqualTo(java.math.BigInteger.valueOf(a).subtract(java.math.BigInteger.valueOf(b))
                .max(java.math.BigInteger.valueOf(Long.MIN_VALUE)).min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValueExact());
    }
}
