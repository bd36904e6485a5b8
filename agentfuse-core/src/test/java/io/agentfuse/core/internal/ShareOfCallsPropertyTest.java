package io.agentfuse.core.internal;

import io.agentfuse.core.ManualClock;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import static org.assertj.core.api.Assertions.assertThat;

/** The share budget of retries and hedges: extras never exceed {@code share × calls + floor}. */
class ShareOfCallsPropertyTest {

    @Property
    void oneMoreIsAllowedExactlyWhileTheShareAndFloorHoldIt(@ForAll @LongRange(min = 0, max = 10_000) long taken,
                                                            @ForAll @LongRange(min = 0, max = 100_000) long calls,
                                                            @ForAll @DoubleRange(min = 0.0, max = 1.0) double share,
                                                            @ForAll @IntRange(min = 0, max = 100) int floor) {
        assertThat(ShareOfCalls.allowsOneMore(taken, calls, share, floor)).isEqualTo(taken + 1 <= floor + share * calls);
        assertThat(ShareOfCalls.available(taken, calls, share, floor) > 0)
                .isEqualTo(ShareOfCalls.allowsOneMore(taken, calls, share, floor));
    }

    @Property
    void takingWhileAllowedNeverExceedsTheShareOfTheCallsCounted(@ForAll @IntRange(min = 0, max = 500) int calls,
                                                                 @ForAll @DoubleRange(min = 0.01, max = 1.0) double share,
                                                                 @ForAll @IntRange(min = 0, max = 20) int floor) {
        ManualClock clock = new ManualClock();
        ShareOfCalls budget = new ShareOfCalls(share, floor, 10_000_000_000L, clock);
        for (int i = 0; i < calls; i++) {
            budget.countCall();
        }

        int taken = 0;
        while (budget.tryTake()) {
            taken++;
        }

        assertThat((double) taken).isLessThanOrEqualTo(share * calls + floor);
        assertThat((double) taken + 1).isGreaterThan(share * calls + floor);
        assertThat(budget.available()).isZero();
    }
}
