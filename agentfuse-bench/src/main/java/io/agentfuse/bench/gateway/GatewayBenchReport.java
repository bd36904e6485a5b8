package io.agentfuse.bench.gateway;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns the runs that {@code run-gateway-bench.sh} recorded into the Markdown table of
 * {@code gateway/RESULTS.md}: per target and connection count the throughput, p50 and p99, the
 * p50 a gateway adds over the direct run at the same connections, its CPU time per request and its
 * peak RSS, then the targets of the workload measured ({@link DoneWhenChecks}).
 *
 * <p>A run with errors is marked invalid in its row and makes the program exit with status 1, so
 * that no one quotes its figures by accident.
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.gateway.GatewayBenchReport runs.tsv 100 conversation
 * }</pre>
 */
public final class GatewayBenchReport {

    /** The target that goes straight to the upstream, which the gateways are compared with. */
    public static final String DIRECT = "direct";

    /** The workload whose targets a report checks when none is named. */
    public static final String DEFAULT_WORKLOAD = "small";

    private final List<BenchRun> runs;
    private final long ticksPerSecond;
    private final String workload;

    /** A report of {@code runs} of the small workload; see {@link #GatewayBenchReport(List, long, String)}. */
    public GatewayBenchReport(List<BenchRun> runs, long ticksPerSecond) {
        this(runs, ticksPerSecond, DEFAULT_WORKLOAD);
    }

    /**
     * A report of {@code runs} of {@code workload} (one of {@link DoneWhenChecks#WORKLOADS}), whose CPU
     * ticks are {@code ticksPerSecond} a second ({@code getconf CLK_TCK}).
     */
    public GatewayBenchReport(List<BenchRun> runs, long ticksPerSecond, String workload) {
        if (ticksPerSecond < 1) {
            throw new IllegalArgumentException("ticksPerSecond must be >= 1, but was " + ticksPerSecond);
        }
        this.runs = List.copyOf(runs);
        this.ticksPerSecond = ticksPerSecond;
        this.workload = DoneWhenChecks.known(workload);
    }

    /**
     * {@code args[0]}: the recorded runs, one {@link BenchRun} a line; {@code args[1]}: clock ticks a
     * second; {@code args[2]} (optional, default {@value #DEFAULT_WORKLOAD}): the workload they measured.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: GatewayBenchReport RUNS_FILE CLOCK_TICKS_PER_SECOND [small|conversation|stream]");
            System.exit(2);
        }
        List<BenchRun> runs = Files.readAllLines(Path.of(args[0])).stream()
                .filter(line -> !line.isBlank())
                .map(BenchRun::parse)
                .toList();
        GatewayBenchReport report = new GatewayBenchReport(runs, Long.parseLong(args[1]),
                args.length == 3 ? args[2] : DEFAULT_WORKLOAD);
        report.print(System.out);
        System.exit(report.allValid() ? 0 : 1);
    }

    /** Whether every run was free of errors. */
    public boolean allValid() {
        return runs.stream().allMatch(BenchRun::valid);
    }

    /** Prints the table, the invalid runs (if any) and the targets. */
    public void print(PrintStream out) {
        out.println("| target | connections | requests/s | p50 | p99 | added p50 | CPU/request | peak RSS | host steal | valid |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (BenchRun run : runs) {
            out.println(row(run));
        }
        out.println();
        out.println("CPU/request and peak RSS are the measured server's: the gateway's, or the upstream's own "
                + "for `direct`. Added p50 = the gateway's p50 minus the direct p50 at the same connections. "
                + "Host steal = CPU time the hypervisor took away during the run, as a share of one CPU: "
                + "a run with much of it met a slow phase of the host.");
        runs.stream().filter(run -> !run.valid()).forEach(run -> out.println(
                "INVALID: " + run.target() + " at " + run.connections() + " connections: "
                        + String.join(", ", run.problems())));
        out.println();
        new DoneWhenChecks(this, workload).print(out);
    }

    /** The run of {@code target} at {@code connections}, if there is one. */
    Optional<BenchRun> run(String target, int connections) {
        return runs.stream()
                .filter(run -> run.target().equals(target) && run.connections() == connections)
                .findFirst();
    }

    /** {@code run}'s p50 minus the direct p50 at its connections, when both are valid. */
    Optional<Long> addedP50Micros(BenchRun run) {
        if (DIRECT.equals(run.target()) || !run.valid()) {
            return Optional.empty();
        }
        return run(DIRECT, run.connections())
                .filter(BenchRun::valid)
                .map(direct -> run.p50Micros() - direct.p50Micros());
    }

    /** The highest peak RSS of {@code target} over its runs, in KiB. */
    Optional<Long> peakRssKb(String target) {
        return runs.stream().filter(run -> run.target().equals(target))
                .map(BenchRun::peakRssKb).max(Long::compare);
    }

    private String row(BenchRun run) {
        return String.format(Locale.ROOT, "| %s | %d | %,.0f | %s | %s | %s | %.1f µs | %.1f MiB | %.1f %% | %s |",
                run.target(), run.connections(), run.requestsPerSecond(),
                millis(run.p50Micros()), millis(run.p99Micros()),
                addedP50Micros(run).map(GatewayBenchReport::millis).orElse("–"),
                run.cpuMicrosPerRequest(ticksPerSecond), run.peakRssKb() / 1024.0,
                100 * run.stealShare(ticksPerSecond), run.valid() ? "yes" : "**no**");
    }

    static String millis(long micros) {
        return String.format(Locale.ROOT, "%.3f ms", micros / 1000.0);
    }
}
