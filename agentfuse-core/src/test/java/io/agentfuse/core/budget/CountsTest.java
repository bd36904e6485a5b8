package io.agentfuse.core.budget;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Sums of counts: exact while they fit in a {@code long}, at its end when they do not, never wrapped round. */
class CountsTest {

    @Test
    void aSumThatFitsIsExact() {
        assertThat(Counts.sum(12, 30)).isEqualTo(42);
        assertThat(Counts.sum(Long.MAX_VALUE - 1, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(Counts.sum(-5, 3)).isEqualTo(-2);
    }

    @Test
    void aSumPastTheRangeStaysAtItsEnd() {
        assertThat(Counts.sum(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(Counts.sum(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Counts.sum(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void everySumIsTheExactOneClampedToTheRange() {
        SplittableRandom random = new SplittableRandom(7);
        BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
        BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
        for (int i = 0; i < 10_000; i++) {
            long first = random.nextLong();
            long second = i % 2 == 0 ? random.nextLong() : random.nextLong(Long.MAX_VALUE);
            BigInteger exact = BigInteger.valueOf(first).add(BigInteger.valueOf(second));
            assertThat(Counts.sum(first, second)).as("%d + %d", first, second)
                    .isEqualTo(exact.max(min).min(max).longValueExact());
        }
    }
}
