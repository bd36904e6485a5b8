package io.agentfuse.bench.gateway;

import java.util.ArrayList;
import java.util.List;

/**
 * One measured wrk run of the gateway benchmark, as {@code run-gateway-bench.sh} records it: one
 * tab-separated line of the columns in {@link #COLUMNS} order.
 *
 * <p>A run is valid only when no answer had an error status, no socket error happened, and
 * the upstream served at least as many completions as wrk counted (so a gateway that answered
 * from elsewhere, or failed in a way wrk does not see, is caught). Latencies are in microseconds,
 * as wrk reports them; {@code cpuTicks} and {@code peakRssKb} belong to the measured server
 * process (the gateway, or the upstream itself for the direct runs).
 *
 * <p>Immutable.
 *
 * <pre>{@code
 * BenchRun run = BenchRun.parse("agentfuse\t32\t300000\t15000000\t900\t4000\t0\t0\t1200\t150000\t300010\t30");
 * double perSecond = run.requestsPerSecond();   // 20 000
 * }</pre>
 *
 * @param target         {@code direct}, {@code agentfuse} or {@code portkey}
 * @param connections    wrk connections
 * @param requests       requests wrk completed
 * @param durationMicros how long wrk ran
 * @param p50Micros      median latency
 * @param p99Micros      99th-percentile latency
 * @param non2xx         answers with status 400 or more (what wrk prints as "Non-2xx or 3xx responses")
 * @param socketErrors   connect, read, write and timeout errors together
 * @param cpuTicks       user + system clock ticks the measured process used during the run
 * @param peakRssKb      the measured process's VmHWM after the run, in KiB
 * @param upstreamServed completions the upstream served during the run
 * @param stealTicks     clock ticks the hypervisor gave to other guests while this machine's CPUs
 *                       wanted to run, over all CPUs during the run ({@code steal} in {@code /proc/stat}):
 *                       a sign the host slowed this run down, not a fault of the target
 */
public record BenchRun(String target, int connections, long requests, long durationMicros,
                       long p50Micros, long p99Micros, long non2xx, long socketErrors,
                       long cpuTicks, long peakRssKb, long upstreamServed, long stealTicks) {

    /** The columns of a recorded line, in order. */
    public static final String COLUMNS = "target connections requests durationMicros p50Micros p99Micros "
            + "non2xx socketErrors cpuTicks peakRssKb upstreamServed stealTicks";

    private static final int COLUMN_COUNT = COLUMNS.split(" ").length;

    /** Reads one recorded line; a line of the wrong shape fails with the line in the message. */
    public static BenchRun parse(String line) {
        String[] cells = line.strip().split("\t");
        if (cells.length != COLUMN_COUNT) {
            throw new IllegalArgumentException("a run needs " + COLUMN_COUNT + " tab-separated columns ("
                    + COLUMNS + "), but was: " + line);
        }
        try {
            return new BenchRun(cells[0], Integer.parseInt(cells[1]), Long.parseLong(cells[2]),
                    Long.parseLong(cells[3]), Long.parseLong(cells[4]), Long.parseLong(cells[5]),
                    Long.parseLong(cells[6]), Long.parseLong(cells[7]), Long.parseLong(cells[8]),
                    Long.parseLong(cells[9]), Long.parseLong(cells[10]), Long.parseLong(cells[11]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a run has a column that is not a number: " + line, e);
        }
    }

    /** Completed requests per second of wrk's run. */
    public double requestsPerSecond() {
        return durationMicros == 0 ? 0 : requests * 1_000_000.0 / durationMicros;
    }

    /** CPU time the measured process spent per request, in microseconds. */
    public double cpuMicrosPerRequest(long ticksPerSecond) {
        return requests == 0 ? 0 : cpuTicks * (1_000_000.0 / ticksPerSecond) / requests;
    }

    /** The host's steal time during the run as a share of one CPU (0.02 = 2 % of a CPU taken away). */
    public double stealShare(long ticksPerSecond) {
        return durationMicros == 0 ? 0 : stealTicks / (double) ticksPerSecond / (durationMicros / 1_000_000.0);
    }

    /** Why this run's figures cannot be trusted; empty when it is valid. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (requests == 0) {
            problems.add("no request completed");
        }
        if (non2xx > 0) {
            problems.add(non2xx + " answers with status >= 400");
        }
        if (socketErrors > 0) {
            problems.add(socketErrors + " socket errors");
        }
        if (upstreamServed < requests) {
            problems.add("upstream served " + upstreamServed + " of " + requests + " requests");
        }
        return problems;
    }

    /** Whether the run had no errors and really went through the upstream. */
    public boolean valid() {
        return problems().isEmpty();
    }
}
