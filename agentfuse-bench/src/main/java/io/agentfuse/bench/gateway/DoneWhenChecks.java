package io.agentfuse.bench.gateway;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The targets the gateway benchmark's issues set, checked against the measured runs of one
 * workload:
 * <ul>
 *   <li>{@code small}: agentfuse serves at least {@value #MIN_PORTKEY_RATIO}× Portkey's requests per
 *       second at {@value #LOADED_CONNECTIONS} connections and at least {@value #MIN_FLOOR_RATIO}× a
 *       bare Vert.x proxy's on the same transport ({@code vertx-floor}, {@link VertxFloorProxy}: the
 *       framework's own floor; nginx is measured beside it, but sits below what any Vert.x proxy
 *       reaches on a small machine, 0.79–0.90× of it), and adds at most a tenth of the p50 latency
 *       Portkey adds at 1 connection (aim: under {@value #AIM_ADDED_P50_MICROS} µs);</li>
 *   <li>{@code conversation} (the 150 KB agent conversation): at least {@value #MIN_PORTKEY_RATIO}×
 *       Portkey's requests per second at {@value #AGENT_CONNECTIONS} connections, and at most
 *       {@value #MAX_CONVERSATION_ADDED_P50_MICROS} µs of added p50 at 1 connection;</li>
 *   <li>{@code stream} (20 events): at least {@value #MIN_STREAMS_PER_SECOND} streams a second at
 *       {@value #AGENT_CONNECTIONS} connections;</li>
 *   <li>every workload: agentfuse's peak RSS at most {@value #MAX_RSS_MIB} MiB.</li>
 * </ul>
 * A check whose runs are missing or invalid says so instead of passing. Immutable.
 *
 * <pre>{@code
 * new DoneWhenChecks(report, "conversation").print(System.out);
 * }</pre>
 */
public final class DoneWhenChecks {

    /** The workloads the bench runs, whose targets this class knows. */
    public static final List<String> WORKLOADS = List.of("small", "conversation", "stream");

    static final int LOADED_CONNECTIONS = 32;
    static final int AGENT_CONNECTIONS = 8;
    static final int MIN_PORTKEY_RATIO = 10;
    static final double MIN_FLOOR_RATIO = 0.9;
    static final int AIM_ADDED_P50_MICROS = 150;
    static final int MAX_CONVERSATION_ADDED_P50_MICROS = 1_000;
    static final int MIN_STREAMS_PER_SECOND = 10_000;
    static final int MAX_RSS_MIB = 256;

    private static final String AGENTFUSE = "agentfuse";
    private static final String PORTKEY = "portkey";
    private static final String VERTX_FLOOR = "vertx-floor";

    private final GatewayBenchReport report;
    private final String workload;

    /**
     * Checks the runs of {@code report}, which measured {@code workload}.
     *
     * @throws IllegalArgumentException for a workload not in {@link #WORKLOADS}
     */
    public DoneWhenChecks(GatewayBenchReport report, String workload) {
        this.report = report;
        this.workload = known(workload);
    }

    /**
     * {@code workload}, if it is one of {@link #WORKLOADS}.
     *
     * @throws IllegalArgumentException naming the known ones, otherwise
     */
    static String known(String workload) {
        if (!WORKLOADS.contains(workload)) {
            throw new IllegalArgumentException("unknown workload '" + workload + "' (" + String.join(", ", WORKLOADS) + ")");
        }
        return workload;
    }

    /** Prints one line per target of the workload: the figures compared and PASS, FAIL or n/a. */
    public void print(PrintStream out) {
        out.println("Targets:");
        checks().forEach(check -> out.println("- " + check));
    }

    private List<String> checks() {
        List<String> checks = new ArrayList<>();
        switch (workload) {
            case "small" -> {
                checks.add(throughputAgainst(PORTKEY, "Portkey", LOADED_CONNECTIONS, MIN_PORTKEY_RATIO));
                checks.add(throughputAgainst(VERTX_FLOOR, "the Vert.x floor", LOADED_CONNECTIONS, MIN_FLOOR_RATIO));
                checks.add(addedLatencyAgainstPortkey());
            }
            case "conversation" -> {
                checks.add(throughputAgainst(PORTKEY, "Portkey", AGENT_CONNECTIONS, MIN_PORTKEY_RATIO));
                checks.add(addedLatencyAtMost(MAX_CONVERSATION_ADDED_P50_MICROS));
            }
            default -> checks.add(streamRate());
        }
        checks.add(memory());
        return checks;
    }

    private String throughputAgainst(String peer, String peerName, int connections, double minRatio) {
        String what = String.format(Locale.ROOT, "requests/s at %d connections >= %sx %s's: ", connections,
                ratioText(minRatio), peerName);
        Optional<BenchRun> agentfuse = validRun(AGENTFUSE, connections);
        Optional<BenchRun> other = validRun(peer, connections);
        if (agentfuse.isEmpty() || other.isEmpty()) {
            return what + "n/a (no valid run of both)";
        }
        double ratio = agentfuse.get().requestsPerSecond() / other.get().requestsPerSecond();
        return what + String.format(Locale.ROOT, "agentfuse %,.0f, %s %,.0f = %sx: %s",
                agentfuse.get().requestsPerSecond(), peerName, other.get().requestsPerSecond(),
                ratioAgainst(ratio, minRatio), verdict(ratio >= minRatio));
    }

    /**
     * {@code ratio} to two decimals, or to as many more (up to six) as it takes for the figure to
     * read on the same side of {@code bar} as the verdict: 0.8999 is "0.8999", not a failing "0.90".
     */
    static String ratioAgainst(double ratio, double bar) {
        String shown = "";
        for (int decimals = 2; decimals <= 6; decimals++) {
            shown = String.format(Locale.ROOT, "%." + decimals + "f", ratio);
            if (Double.parseDouble(shown) >= bar == ratio >= bar) {
                break;
            }
        }
        return shown;
    }

    private String addedLatencyAgainstPortkey() {
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

    private String addedLatencyAtMost(long maxMicros) {
        String what = "added p50 at 1 connection <= " + GatewayBenchReport.millis(maxMicros) + ": ";
        return validRun(AGENTFUSE, 1).flatMap(report::addedP50Micros)
                .map(added -> what + "agentfuse " + GatewayBenchReport.millis(added) + ": " + verdict(added <= maxMicros))
                .orElse(what + "n/a (no valid run of agentfuse and of direct)");
    }

    private String streamRate() {
        String what = String.format(Locale.ROOT, "streams/s at %d connections >= %,d: ", AGENT_CONNECTIONS,
                MIN_STREAMS_PER_SECOND);
        return validRun(AGENTFUSE, AGENT_CONNECTIONS)
                .map(run -> what + String.format(Locale.ROOT, "agentfuse %,.0f: %s", run.requestsPerSecond(),
                        verdict(run.requestsPerSecond() >= MIN_STREAMS_PER_SECOND)))
                .orElse(what + "n/a (no valid run)");
    }

    private String memory() {
        String what = "agentfuse peak RSS <= " + MAX_RSS_MIB + " MiB: ";
        return report.peakRssKb(AGENTFUSE)
                .map(kb -> what + String.format(Locale.ROOT, "%.1f MiB: %s", kb / 1024.0,
                        verdict(kb <= MAX_RSS_MIB * 1024L)))
                .orElse(what + "n/a (no run)");
    }

    private Optional<BenchRun> validRun(String target, int connections) {
        return report.run(target, connections).filter(BenchRun::valid);
    }

    private static String ratioText(double ratio) {
        return ratio == Math.rint(ratio) ? Long.toString((long) ratio) : Double.toString(ratio);
    }

    private static String verdict(boolean passed) {
        return passed ? "PASS" : "FAIL";
    }
}
