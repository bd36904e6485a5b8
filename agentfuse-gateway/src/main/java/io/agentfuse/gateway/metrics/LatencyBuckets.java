package io.agentfuse.gateway.metrics;

/**
 * The latency buckets of one second of {@link RecentTraffic}: four per power of two of
 * microseconds, from under 4 µs (one bucket) to about 134 s (everything slower shares the last
 * bucket), so a percentile read from them is at most 25 % above the true value. Pure functions,
 * thread-safe.
 *
 * <pre>{@code
 * int bucket = LatencyBuckets.index(1_500_000);          // 1.5 ms
 * long upper = LatencyBuckets.upperBoundMicros(bucket);  // 1 536 µs
 * }</pre>
 */
final class LatencyBuckets {

    /** Sub-buckets per power of two. */
    private static final int STEPS = 4;
    private static final int STEP_BITS = 2;
    /** The smallest power of two of microseconds with buckets of its own (4 µs): below, one bucket. */
    private static final int MIN_EXPONENT = STEP_BITS;
    /** The largest power of two of microseconds with buckets of its own (2^27 µs ≈ 134 s). */
    private static final int MAX_EXPONENT = 27;

    /** How many buckets there are: one for under 4 µs, then {@value #STEPS} per power of two. */
    static final int COUNT = 1 + (MAX_EXPONENT - MIN_EXPONENT + 1) * STEPS;

    private LatencyBuckets() {
    }

    /** The bucket of a duration of {@code nanos} (negative counts as 0). */
    static int index(long nanos) {
        long micros = nanos / 1_000L;
        if (micros < 1L << MIN_EXPONENT) {
            return 0;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        if (exponent > MAX_EXPONENT) {
            return COUNT - 1;
        }
        long step = (micros >>> (exponent - STEP_BITS)) & (STEPS - 1);
        return 1 + (exponent - MIN_EXPONENT) * STEPS + (int) step;
    }

    /** The smallest duration, in microseconds, that lies above bucket {@code index}. */
    static long upperBoundMicros(int index) {
        if (index == 0) {
            return 1L << MIN_EXPONENT;
        }
        int exponent = MIN_EXPONENT + (index - 1) / STEPS;
        int step = (index - 1) % STEPS;
        long base = 1L << exponent;
        return base + (base * (step + 1)) / STEPS;
    }

    /**
     * The {@code quantile} (0 < q ≤ 1) of the durations counted in {@code counts}, as the upper bound
     * of its bucket in microseconds but never above {@code maxMicros}; 0 when nothing was counted.
     */
    static long quantileMicros(long[] counts, long total, double quantile, long maxMicros) {
        if (total <= 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(upperBoundMicros(i), maxMicros);
            }
        }
        return maxMicros;
    }
}
