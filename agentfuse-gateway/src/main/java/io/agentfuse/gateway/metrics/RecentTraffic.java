package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The model requests the gateway answered over the last {@value #HORIZON_SECONDS} seconds, second
 * by second: how many, how many errors (status ≥ 500 or 429), their latency percentiles, and the
 * provider calls that failed and fallback steps taken behind them — what the dashboard draws. A ring of per-second slots, reused as time goes round.
 *
 * <p>{@link #record} is on the hot path of every request: no lock and no allocation, counters
 * striped per thread, a bounded latency histogram per second (see {@link LatencyBuckets}).
 * Seconds are read from the injected clock's wall time. Thread-safe.
 *
 * <pre>{@code
 * RecentTraffic traffic = new RecentTraffic(Clock.system());
 * traffic.record(200, 12_000_000);
 * List<TrafficSecond> lastFiveMinutes = traffic.lastSeconds();
 * }</pre>
 */
public final class RecentTraffic {

    /** How many complete seconds {@link #lastSeconds()} returns: 5 minutes. */
    public static final int HORIZON_SECONDS = 300;
    /** The horizon, the second being counted, and one spare so a late writer never hits a shown second. */
    private static final int SLOTS = HORIZON_SECONDS + 2;

    private final Clock clock;
    private final TrafficSlot[] slots = new TrafficSlot[SLOTS];

    /** Counts on {@code clock}'s wall time. */
    public RecentTraffic(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new TrafficSlot();
        }
    }

    /** Whether a request answered with {@code status} counts as an error: 5xx, and 429 (the gateway was full). */
    public static boolean isError(int status) {
        return status >= 500 || status == 429;
    }

    /** Counts one request answered now with {@code status} after {@code durationNanos}. */
    public void record(int status, long durationNanos) {
        long second = currentSecond();
        TrafficSlot slot = slots[(int) Math.floorMod(second, SLOTS)];
        if (slot.claim(second)) {
            slot.record(isError(status), durationNanos);
        }
    }

    /** Counts one call to a provider that failed now (or a stream that broke). */
    public void upstreamFailure() {
        TrafficSlot slot = claimCurrent();
        if (slot != null) {
            slot.upstreamFailure();
        }
    }

    /** Counts one fallback step passed over now. */
    public void fallback() {
        TrafficSlot slot = claimCurrent();
        if (slot != null) {
            slot.fallback();
        }
    }

    /** The slot of the current second, claimed; null when a writer of a later second has it. */
    private TrafficSlot claimCurrent() {
        long second = currentSecond();
        TrafficSlot slot = slots[(int) Math.floorMod(second, SLOTS)];
        return slot.claim(second) ? slot : null;
    }

    /**
     * The last {@value #HORIZON_SECONDS} complete seconds, oldest first, one entry per second (the
     * second still being counted is left out: its rate would read low).
     */
    public List<TrafficSecond> lastSeconds() {
        long current = currentSecond();
        List<TrafficSecond> seconds = new ArrayList<>(HORIZON_SECONDS);
        for (long second = current - HORIZON_SECONDS; second < current; second++) {
            seconds.add(slots[(int) Math.floorMod(second, SLOTS)].read(second));
        }
        return seconds;
    }

    private long currentSecond() {
        return Math.floorDiv(clock.epochMillis(), 1_000L);
    }
}
