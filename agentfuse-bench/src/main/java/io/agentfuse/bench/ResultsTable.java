package io.agentfuse.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints JMH's JSON results of the breaker benchmarks as a markdown table, with each row's
 * throughput relative to resilience4j and to Failsafe in the same scenario and thread count,
 * followed by the done-when targets and whether this run meets them.
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.ResultsTable results.json
 * }</pre>
 */
public final class ResultsTable {

    static final List<String> SCENARIOS = List.of("ClosedGuardedCall", "ClosedPermitAndRecord",
            "OpenRejectionThrowing", "OpenRejectionToFallback", "OpenPermissionDenied", "RetryAndBreakerCall");
    private static final List<String> LIBRARIES = List.of("agentfuse", "agentfuseDefaults",
            "resilience4j", "resilience4jTuned", "failsafe");

    private final List<BenchmarkResult> results;

    ResultsTable(List<BenchmarkResult> results) {
        this.results = results.stream()
                .sorted(Comparator.comparingInt((BenchmarkResult r) -> rank(SCENARIOS, r.scenario()))
                        .thenComparingInt(BenchmarkResult::threads)
                        .thenComparingInt(r -> rank(LIBRARIES, r.library())))
                .toList();
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ResultsTable <jmh-results.json>");
            System.exit(2);
        }
        JsonNode rows = JsonMapper.builder().build().readTree(Path.of(args[0]));
        List<BenchmarkResult> results = new ArrayList<>();
        for (JsonNode row : rows) {
            results.add(BenchmarkResult.of(row));
        }
        ResultsTable table = new ResultsTable(results);
        table.printTable(System.out);
        System.out.println();
        new Targets(table).print(System.out);
    }

    void printTable(PrintStream out) {
        out.println("| scenario | library | threads | forks | ops/µs | ± error | ns/op per thread | B/op | × resilience4j | × Failsafe |");
        out.println("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|");
        for (BenchmarkResult row : results) {
            out.printf(Locale.ROOT, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |%n",
                    row.scenario(), row.library(), row.threads(), row.forks(),
                    number(row.score()), number(row.error()), number(row.threads() * 1_000.0 / row.score()),
                    bytes(row.bytesPerOp()),
                    ratio(row, resilience4jBaseline(row)), ratio(row, find(row.scenario(), "failsafe", row.threads())));
        }
        out.println();
        out.println("`×` columns: this row's throughput divided by the baseline's, same scenario and threads. "
                + "OpenRejectionToFallback has no resilience4j row (its circuit-breaker module has no non-throwing "
                + "call); its baseline is resilience4j's throwing rejection.");
    }

    /** resilience4j's row for the same scenario and threads, or its throwing rejection where it has none. */
    Optional<BenchmarkResult> resilience4jBaseline(BenchmarkResult row) {
        return find(row.scenario(), "resilience4j", row.threads())
                .or(() -> row.scenario().startsWith("Open")
                        ? find("OpenRejectionThrowing", "resilience4j", row.threads())
                        : Optional.empty());
    }

    Optional<BenchmarkResult> find(String scenario, String library, int threads) {
        return results.stream()
                .filter(r -> r.scenario().equals(scenario) && r.library().equals(library) && r.threads() == threads)
                .findFirst();
    }

    /** Every row of the run, in table order. */
    List<BenchmarkResult> rows() {
        return results;
    }

    List<Integer> threadCounts() {
        return results.stream().map(BenchmarkResult::threads).distinct().sorted().toList();
    }

    private static String ratio(BenchmarkResult row, Optional<BenchmarkResult> baseline) {
        return baseline.map(b -> String.format(Locale.ROOT, "%.2f×", row.timesFaster(b))).orElse("–");
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }

    static String bytes(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.0f", Math.max(0.0, value));
    }

    private static int rank(List<String> order, String name) {
        int index = order.indexOf(name);
        return index < 0 ? order.size() : index;
    }
}
