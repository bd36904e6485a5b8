package io.agentfuse.core;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RetryAfter} reads every well-formed number exactly. */
class RetryAfterPropertyTest {

    private static final long NOW = ManualClock.DEFAULT_EPOCH_MILLIS;
    private static final long SECOND = 1_000_000_000L;

    @Property
    void wholeSecondsAreReadExactly(@ForAll @IntRange(min = 0, max = 1_000_000) int seconds) {
        assertThat(RetryAfter.nanos(null, Integer.toString(seconds), NOW)).isEqualTo(seconds * SECOND);
    }

    @Property
    void wholeMillisecondsAreReadExactly(@ForAll @IntRange(min = 0, max = 100_000_000) int millis) {
        assertThat(RetryAfter.nanos(Integer.toString(millis), "99", NOW)).isEqualTo(millis * 1_000_000L);
    }
}
