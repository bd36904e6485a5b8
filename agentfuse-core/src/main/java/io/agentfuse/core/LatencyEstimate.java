package io.agentfuse.core;

import io.agentfuse.core.internal.Checks;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long a guarded step has recently taken to produce its first result: the median that decides
 * whether a retry or a fallback step fits a request's {@link Deadline}, and the p95 after which a
 * {@link io.agentfuse.core.hedge.HedgePolicy} may start a hedge.
 *
 * <p><b>Recent</b> means the last {@code samples} results (default {@value #DEFAULT_SAMPLES}) that
 * are at most {@code maxAge} old (default 5 minutes): a step called rarely is not judged by what
 * it did an hour ago. With fewer than {@value #MIN_SAMPLES} such samples nothing is known, and
 * every quantile is -1: the fit rule then only asks for some time to be left, and an adaptive
 * hedge is not started (there is nothing to call slow yet). The guard records a sample for each
 * attempt that produced a result (its time to first content, or to its answer) and for each
 * attempt that ran into its own timeout (a lower bound, which is what makes a stalled step look
 * slow); failures that came fast say nothing about how long an answer takes and are left out, and
 * so are attempts cut short by a deadline or abandoned as a hedge's loser.
 *
 * <p>Thread-safe and lock-free: recording is one atomic increment and two array stores, with no
 * allocation. A quantile sorts a copy of the live samples (at most {@code samples} longs) when a
 * sample came since the last sort, and reads the cached sort otherwise (a sample ages out at most
 * a sixteenth of {@code maxAge} late). Two threads recording at
 * once may pair one's time with the other's duration in a slot; for an estimate that is harmless.
 *
 * <pre>{@code
 * LatencyEstimate latency = LatencyEstimate.of(clock);
 * Guard guard = Guard.builder("model:claude-sonnet-4").latencyEstimate(latency).build();
 * long median = latency.medianNanos();   // -1 until five answers were seen
 * }</pre>
 */
public final class LatencyEstimate {

    /** Samples kept by default. */
    public static final int DEFAULT_SAMPLES = 64;
    /** Samples needed before a quantile is known. */
    public static final int MIN_SAMPLES = 5;
    /** How old a sample may be by default. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofMinutes(5);

    private static final long UNWRITTEN = Long.MIN_VALUE;
    private static final Sorted NOTHING = new Sorted(-1L, Long.MIN_VALUE, new long[0]);

    private final Clock clock;
    private final int mask;
    private final long maxAgeNanos;
    private final AtomicLongArray durations;
    private final AtomicLongArray times;
    private final AtomicLong recorded = new AtomicLong();
    private volatile Sorted sorted = NOTHING;

    /** The live samples in order, as of {@code recorded} samples at {@code nanoTime}. */
    private record Sorted(long recorded, long nanoTime, long[] nanos) {
    }

    private LatencyEstimate(Clock clock, int samples, Duration maxAge) {
        Checks.notNull("clock", clock);
        Checks.atLeast("samples", samples, MIN_SAMPLES);
        if (Integer.bitCount(samples) != 1) {
            throw new IllegalArgumentException("samples " + Checks.mustBe("a power of two", samples));
        }
        Checks.positive("maxAge", maxAge);
        this.clock = clock;
        this.mask = samples - 1;
        this.maxAgeNanos = maxAge.toNanos();
        this.durations = new AtomicLongArray(samples);
        this.times = new AtomicLongArray(samples);
        for (int slot = 0; slot < samples; slot++) {
            times.set(slot, UNWRITTEN); // a slot claimed but not written yet is no sample
        }
    }

    /** An estimate of the last {@value #DEFAULT_SAMPLES} samples within 5 minutes, aged on {@code clock}. */
    public static LatencyEstimate of(Clock clock) {
        return new LatencyEstimate(clock, DEFAULT_SAMPLES, DEFAULT_MAX_AGE);
    }

    /** An estimate of the last {@code samples} samples (a power of two, at least {@value #MIN_SAMPLES}) within {@code maxAge}. */
    public static LatencyEstimate of(Clock clock, int samples, Duration maxAge) {
        return new LatencyEstimate(clock, samples, maxAge);
    }

    /** Records one step that took {@code nanos} to its first result; a negative duration (not measured) is ignored. */
    public void record(long nanos) {
        if (nanos < 0) {
            return;
        }
        long index = recorded.getAndIncrement();
        int slot = (int) (index & mask);
        durations.set(slot, nanos);
        times.set(slot, clock.nanoTime());
    }

    /** The recent median, or -1 while fewer than {@value #MIN_SAMPLES} recent samples are known. */
    public long medianNanos() {
        return quantileNanos(0.5);
    }

    /** The recent 95th percentile, or -1 while too few are known. */
    public long p95Nanos() {
        return quantileNanos(0.95);
    }

    /**
     * The recent {@code quantile} (in (0, 1]) by nearest rank: the smallest sample that at least
     * that share of the recent samples does not exceed; -1 while fewer than {@value #MIN_SAMPLES} are known.
     */
    public long quantileNanos(double quantile) {
        if (!(quantile > 0.0 && quantile <= 1.0)) {
            throw new IllegalArgumentException("quantile " + Checks.mustBe("in (0, 1]", quantile));
        }
        long[] live = live().nanos;
        if (live.length < MIN_SAMPLES) {
            return -1L;
        }
        return live[rank(quantile, live.length)];
    }

    /** The index of the nearest-rank {@code quantile} among {@code count} sorted samples. */
    static int rank(double quantile, int count) {
        int rank = (int) Math.ceil(quantile * count);
        return Math.min(count, Math.max(1, rank)) - 1;
    }

    /** How many samples are recent now. */
    public int recentSamples() {
        return live().nanos.length;
    }

    /**
     * The sorted live samples: the cached sort while no sample came since and it is younger than a
     * sixteenth of {@code maxAge} (so a sample ages out at most that late).
     */
    private Sorted live() {
        long count = recorded.get();
        long now = clock.nanoTime();
        Sorted cached = sorted;
        if (cached.recorded == count && now - cached.nanoTime < maxAgeNanos / 16) {
            return cached;
        }
        int filled = (int) Math.min(count, mask + 1L);
        long[] nanos = new long[filled];
        int live = 0;
        for (int slot = 0; slot < filled; slot++) {
            long time = times.get(slot);
            if (time != UNWRITTEN && now - time <= maxAgeNanos) {
                nanos[live++] = durations.get(slot);
            }
        }
        nanos = live == filled ? nanos : Arrays.copyOf(nanos, live);
        Arrays.sort(nanos);
        Sorted fresh = new Sorted(count, now, nanos);
        sorted = fresh;
        return fresh;
    }

    @Override
    public String toString() {
        return "LatencyEstimate[" + recentSamples() + " recent, median " + medianNanos() + " ns]";
    }
}
