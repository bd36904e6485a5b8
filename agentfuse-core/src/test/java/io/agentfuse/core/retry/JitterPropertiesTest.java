package io.agentfuse.core.retry;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The documented bounds of every jitter variant, for any delay, cap and random draw. */
class JitterPropertiesTest {

    private static final long HOUR = Duration.ofHours(1).toNanos();

    @Property
    void noneIsExactlyTheExponentialDelay(@ForAll("delays") long delay, @ForAll @DoubleRange(max = 1.0, maxIncluded = false) double random) {
        assertThat(Jitter.NONE.apply(delay, delay, delay, HOUR, random)).isEqualTo(delay);
    }

    @Property
    void fullStaysWithinZeroAndTheDelay(@ForAll("delays") long delay, @ForAll @DoubleRange(max = 1.0, maxIncluded = false) double random) {
        assertThat(Jitter.FULL.apply(delay, delay, delay, HOUR, random)).isBetween(0L, delay);
    }

    @Property
    void equalStaysWithinHalfTheDelayAndTheDelay(@ForAll("delays") long delay, @ForAll @DoubleRange(max = 1.0, maxIncluded = false) double random) {
        assertThat(Jitter.EQUAL.apply(delay, delay, delay, HOUR, random)).isBetween(delay / 2, delay);
    }

    @Property
    void decorrelatedStaysWithinInitialAndThreeTimesThePreviousCapped(
            @ForAll @LongRange(min = 0, max = 60_000_000_000L) long initial,
            @ForAll @LongRange(min = 0, max = 3_600_000_000_000L) long previous,
            @ForAll @LongRange(min = 0, max = 3_600_000_000_000L) long cap,
            @ForAll @DoubleRange(max = 1.0, maxIncluded = false) double random) {
        long delay = Jitter.DECORRELATED.apply(cap, initial, previous, cap, random);

        long upper = Math.min(cap, Math.max(initial, previous * 3));
        long lower = Math.min(initial, cap);
        assertThat(delay).isBetween(lower, upper);
    }

    @Property
    void everyBackoffOfEveryPolicyIsWithinItsVariantsBoundsAndTheCap(
            @ForAll("policies") RetryPolicy policy,
            @ForAll @IntRange(min = 1, max = 64) int retry,
            @ForAll @LongRange(min = 0, max = 3_600_000_000_000L) long previous,
            @ForAll @DoubleRange(max = 1.0, maxIncluded = false) double random) {
        long initial = policy.initialDelay().toNanos();
        long cap = policy.maxDelay().toNanos();
        long exponential = (long) Math.min(initial * Math.pow(policy.multiplier(), retry - 1), cap);

        long delay = policy.backoffNanos(retry, previous, random);

        assertThat(delay).isBetween(0L, cap);
        switch (policy.jitter()) {
            case NONE -> assertThat(delay).isEqualTo(exponential);
            case FULL -> assertThat(delay).isBetween(0L, exponential);
            case EQUAL -> assertThat(delay).isBetween(exponential / 2, exponential);
            case DECORRELATED -> assertThat(delay)
                    .isBetween(Math.min(initial, cap), Math.min(cap, Math.max(initial, previous * 3)));
        }
    }

    @Property
    void aWholeRetrySequenceNeverExceedsTheCapNorGoesNegative(
            @ForAll("policies") RetryPolicy policy,
            @ForAll @DoubleRange(max = 1.0, maxIncluded = false) double random) {
        long previous = policy.initialDelay().toNanos();
        for (int retry = 1; retry < 40; retry++) {
            long delay = policy.backoffNanos(retry, previous, random);
            assertThat(delay).isBetween(0L, policy.maxDelay().toNanos());
            previous = delay;
        }
    }

    @Provide
    Arbitrary<Long> delays() {
        return Arbitraries.longs().between(0, HOUR);
    }

    @Provide
    Arbitrary<RetryPolicy> policies() {
        Arbitrary<Duration> initial = Arbitraries.longs().between(0, 60_000).map(Duration::ofMillis);
        Arbitrary<Duration> cap = Arbitraries.longs().between(0, 3_600_000).map(Duration::ofMillis);
        Arbitrary<Double> multiplier = Arbitraries.doubles().between(1.0, 10.0);
        Arbitrary<Jitter> jitter = Arbitraries.of(Jitter.class);
        return Combinators.combine(initial, cap, multiplier, jitter).as((first, max, growth, spread) ->
                RetryPolicy.builder().maxAttempts(64).initialDelay(first).maxDelay(max)
                        .multiplier(growth).jitter(spread).build());
    }
}
