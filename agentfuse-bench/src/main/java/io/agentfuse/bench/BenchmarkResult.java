package io.agentfuse.bench;

import tools.jackson.databind.JsonNode;

/**
 * One row of JMH's JSON output, reduced to what the results table shows.
 *
 * <p>JMH names our benchmarks {@code io.agentfuse.bench.<Scenario>.<OneThread|TwoThreads>.<library>}:
 * the scenario is the benchmark class, the library is the method.
 *
 * @param scenario      the benchmark class, e.g. {@code ClosedGuardedCall}
 * @param library       the benchmark method, e.g. {@code resilience4j}
 * @param threads       the benchmark threads
 * @param forks         the forks measured
 * @param score         throughput, in {@code unit}
 * @param error         the 99.9 % confidence half-width of {@code score}
 * @param unit          e.g. {@code ops/us}
 * @param bytesPerOp    {@code gc.alloc.rate.norm}, or {@code NaN} without {@code -prof gc}
 */
record BenchmarkResult(String scenario, String library, int threads, int forks,
                       double score, double error, String unit, double bytesPerOp) {

    static BenchmarkResult of(JsonNode row) {
        String[] name = row.path("benchmark").asString().split("\\.");
        if (name.length < 3) {
            throw new IllegalArgumentException("unexpected benchmark name: " + row.path("benchmark").asString());
        }
        String library = name[name.length - 1];
        String scenario = name[name.length - 3];
        JsonNode primary = row.path("primaryMetric");
        JsonNode allocation = row.path("secondaryMetrics").path("gc.alloc.rate.norm");
        return new BenchmarkResult(scenario, library, row.path("threads").asInt(), row.path("forks").asInt(),
                primary.path("score").asDouble(Double.NaN), primary.path("scoreError").asDouble(Double.NaN),
                primary.path("scoreUnit").asString(),
                allocation.isMissingNode() ? Double.NaN : allocation.path("score").asDouble(Double.NaN));
    }

    /** How many times this row's throughput is {@code other}'s. */
    double timesFaster(BenchmarkResult other) {
        return score / other.score;
    }
}
