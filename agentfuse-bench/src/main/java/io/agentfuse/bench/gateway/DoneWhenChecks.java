package io.agentfuse.bench.gateway;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;

/**
 * The targets of the gateway benchmark's issue, checked against measured runs: agentfuse serves
 * at least {@value #MIN_THROUGHPUT_RATIO}× Portkey's requests per second at
 * {@value #LOADED_CONNECTIONS} connections, adds at most a tenth of the p50 latency Portkey adds
 * at 1 connection (aim: under {@value #AIM_ADDED_P50_MICROS} µs), and peaks under
 * {@value #MAX_RSS_MIB} MiB RSS.
 *
 * <p>A check whose runs are missing or invalid says so instead of passing. Immutable.
 *
 * <pre>{@code
 * new DoneWhenChecks(report).print(System.out);
 * }</pre>
 */
public final class DoneWhenChecks {

    static final int LOADED_CONNECTIONS = 32;
    static final int MIN_THROUGHPUT_RATIO = 10;
    static final int AIM_ADDED_P50_MICROS = 150;
    static final int MAX_RSS_MIB = 256;

    private static final String AGENTFUSE = "agentfuse";
    private static final String PORTKEY = "portkey";

    private final GatewayBenchReport report;

    /** Checks the runs of {@code report}. */
    public DoneWhenChecks(GatewayBenchReport report) {
        this.report = report;
    }

    /** Prints one line per target: the figures compared and PASS, FAIL or n/a. */
    public void print(PrintStream out) {
        out.println("Targets:");
        out.println("- " + throughput());
        out.println("- " + addedLatency());
        out.println("- " + memory());
    }

    private String throughput() {
        String what = "requests/s at " + LOADED_CONNECTIONS + " connections >= " + MIN_THROUGHPUT_RATIO
                + "x Portkey's: ";
        Optional<BenchRun> agentfuse = validRun(AGENTFUSE, LOADED_CONNECTIONS);
        Optional<BenchRun> portkey = validRun(PORTKEY, LOADED_CONNECTIONS);
        if (agentfuse.isEmpty() || portkey.isEmpty()) {
            return what + "n/a (no valid run of both)";
        }
        double ratio = agentfuse.get().requestsPerSecond() / portkey.get().requestsPerSecond();
        return what + String.format(Locale.ROOT, "agentfuse %,.0f, Portkey %,.0f = %.1fx: %s",
                agentfuse.get().requestsPerSecond(), portkey.get().requestsPerSecond(), ratio,
                verdict(ratio >= MIN_THROUGHPUT_RATIO));
    }

    private String addedLatency() {
        String what = "added p50 at 1 connection <= 1/10 of Portkey's (aim < "
                + GatewayBenchReport.millis(AIM_ADDED_P50_MICROS) + "): ";
        Optional<Long> agentfuse = validRun(AGENTFUSE, 1).flatMap(report::addedP50Micros);
        Optional<Long> portkey = validRun(PORTKEY, 1).flatMap(report::addedP50Micros);
        if (agentfuse.isEmpty() || portkey.isEmpty()) {
            return what + "n/a (no valid run of both and of direct)";
        }
        boolean tenth = agentfuse.get() * 10 <= portkey.get();
        return what + "agentfuse " + GatewayBenchReport.millis(agentfuse.get()) + ", Portkey "
                + GatewayBenchReport.millis(portkey.get()) + ": " + verdict(tenth)
                + (agentfuse.get() < AIM_ADDED_P50_MICROS ? " (aim met)" : " (aim missed)");
    }

    private String memory() {
        String what = "agentfuse peak RSS < " + MAX_RSS_MIB + " MiB: ";
        return report.peakRssKb(AGENTFUSE)
                .map(kb -> what + String.format(Locale.ROOT, "%.1f MiB: %s", kb / 1024.0,
                        verdict(kb < MAX_RSS_MIB * 1024L)))
                .orElse(what + "n/a (no run)");
    }

    private Optional<BenchRun> validRun(String target, int connections) {
        return report.run(target, connections).filter(BenchRun::valid);
    }

    private static String verdict(boolean passed) {
        return passed ? "PASS" : "FAIL";
    }
}
