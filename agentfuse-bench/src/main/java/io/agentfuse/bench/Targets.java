package io.agentfuse.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The done-when targets of the breaker benchmarks, checked against one run's results: each line
 * says what was required, what was measured, and MET or MISSED. A target whose rows are missing
 * from the run is reported as not measured, never as met.
 */
final class Targets {

    /** Below this, an allocation figure is measurement noise (JMH reports e.g. 0.001 B/op for zero). */
    private static final double ZERO_BYTES = 0.5;

    private final ResultsTable table;

    Targets(ResultsTable table) {
        this.table = table;
    }

    void print(PrintStream out) {
        out.println("Targets:");
        for (int threads : table.threadCounts()) {
            faster(out, "ClosedGuardedCall", "agentfuseDefaults", "resilience4j", threads, 5.0);
            faster(out, "RetryAndBreakerCall", "agentfuseDefaults", "resilience4j", threads, 5.0);
            faster(out, "ClosedGuardedCall", "agentfuse", "resilience4j", threads, 2.0);
            for (String scenario : ResultsTable.SCENARIOS) {
                faster(out, scenario, "agentfuse", "failsafe", threads, 1.0);
            }
            for (BenchmarkResult row : table.rows()) {
                if (row.threads() == threads && row.library().startsWith("agentfuse")) {
                    zeroBytes(out, row.scenario(), row.library(), threads);
                }
            }
            fasterThanThrowingResilience4j(out, "OpenRejectionThrowing", threads);
            fasterThanThrowingResilience4j(out, "OpenRejectionToFallback", threads);
            fasterThanThrowingResilience4j(out, "OpenPermissionDenied", threads);
        }
        for (String scenario : List.of("OpenRejectionThrowing", "OpenRejectionToFallback", "OpenPermissionDenied")) {
            atLeast(out, scenario, "agentfuseDefaults", 1, 100.0);
        }
    }

    /** {@code minOpsPerMicro} million operations a second or more (scores are in ops/µs). */
    private void atLeast(PrintStream out, String scenario, String library, int threads, double minOpsPerMicro) {
        String goal = String.format(Locale.ROOT, "%s %s ≥ %.0f M ops/s at %d thread(s)", scenario, library, minOpsPerMicro, threads);
        Optional<BenchmarkResult> row = table.find(scenario, library, threads);
        if (row.isEmpty()) {
            out.println("- " + goal + ": not measured");
            return;
        }
        double measured = row.get().score();
        out.printf(Locale.ROOT, "- %s: %.0f M ops/s — %s%n", goal, measured, measured >= minOpsPerMicro ? "MET" : "MISSED");
    }

    private void faster(PrintStream out, String scenario, String library, String baseline, int threads, double factor) {
        String goal = String.format(Locale.ROOT, "%s %s ≥ %.0f× %s at %d thread(s)", scenario, library, factor, baseline, threads);
        Optional<BenchmarkResult> row = table.find(scenario, library, threads);
        Optional<BenchmarkResult> base = table.find(scenario, baseline, threads);
        if (row.isEmpty() || base.isEmpty()) {
            out.println("- " + goal + ": not measured");
            return;
        }
        double measured = row.get().timesFaster(base.get());
        out.printf(Locale.ROOT, "- %s: %.2f× — %s%n", goal, measured, measured >= factor ? "MET" : "MISSED");
    }

    private void fasterThanThrowingResilience4j(PrintStream out, String scenario, int threads) {
        String goal = String.format(Locale.ROOT, "%s agentfuse ≥ 10× resilience4j's throwing rejection at %d thread(s)",
                scenario, threads);
        Optional<BenchmarkResult> row = table.find(scenario, "agentfuse", threads);
        Optional<BenchmarkResult> base = table.find("OpenRejectionThrowing", "resilience4j", threads);
        if (row.isEmpty() || base.isEmpty()) {
            out.println("- " + goal + ": not measured");
            return;
        }
        double measured = row.get().timesFaster(base.get());
        out.printf(Locale.ROOT, "- %s: %.1f× — %s%n", goal, measured, measured >= 10.0 ? "MET" : "MISSED");
    }

    private void zeroBytes(PrintStream out, String scenario, String library, int threads) {
        String goal = String.format(Locale.ROOT, "%s %s allocates 0 B/op at %d thread(s)", scenario, library, threads);
        Optional<BenchmarkResult> row = table.find(scenario, library, threads);
        if (row.isEmpty()) {
            out.println("- " + goal + ": not measured");
            return;
        }
        if (Double.isNaN(row.get().bytesPerOp())) {
            out.println("- " + goal + ": not measured (run with -prof gc)");
            return;
        }
        double bytes = row.get().bytesPerOp();
        out.printf(Locale.ROOT, "- %s: %s B/op — %s%n", goal, ResultsTable.bytes(bytes), bytes < ZERO_BYTES ? "MET" : "MISSED");
    }
}
