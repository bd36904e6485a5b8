package io.agentfuse.config;

import io.agentfuse.core.Clock;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.retry.RetryBudget;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits an {@link AgentfuseRuntime} shares between guards and keeps across reloads: one
 * bulkhead per model (and one for subagents), one retry budget per upstream (a provider, an MCP
 * server, the tools outside MCP servers) and budget setting, as a budget must be shared to stop a
 * retry storm; and per model its recent latency (which a deadline's fit rule and an adaptive hedge
 * read) and its hedge policy with its budget. A reload keeps the counts of what it still uses and
 * drops the rest. Thread-safe.
 */
final class SharedLimits {

    static final String SUBAGENTS = "subagents";
    static final String LOCAL_TOOLS = "tools";

    private final Clock clock;
    private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();
    private final Map<BudgetKey, RetryBudget> budgets = new ConcurrentHashMap<>();
    private final Map<String, LatencyEstimate> latencies = new ConcurrentHashMap<>();
    private final Map<HedgeKey, HedgePolicy> hedges = new ConcurrentHashMap<>();

    /** Budgets are shared per upstream, and only between guards that agree on the budget's settings. */
    private record BudgetKey(String upstream, RetryConfig.Budget settings) {
    }

    /** A hedge budget counts one model's requests, and is kept only while the model's settings stay. */
    private record HedgeKey(String model, HedgeConfig settings) {
    }

    SharedLimits(Clock clock) {
        this.clock = clock;
    }

    /** The bulkhead {@code name}, made anew only when its {@code maxConcurrent} changed. */
    Bulkhead bulkhead(String name, int maxConcurrent) {
        return bulkheads.compute(name, (key, existing) ->
                existing != null && existing.maxConcurrent() == maxConcurrent ? existing : Bulkhead.of(key, maxConcurrent));
    }

    /** The retry budget of {@code upstream} with {@code settings}. */
    RetryBudget budget(String upstream, RetryConfig.Budget settings) {
        return budgets.computeIfAbsent(new BudgetKey(upstream, settings), key -> settings.toRetryBudget(clock));
    }

    /** The recent latency of the model whose breaker is {@code model}; kept while the model is configured. */
    LatencyEstimate latency(String model) {
        return latencies.computeIfAbsent(model, key -> LatencyEstimate.of(clock));
    }

    /** The hedge policy of {@code model} with {@code settings}, with its own budget. */
    HedgePolicy hedge(String model, HedgeConfig settings) {
        return hedges.computeIfAbsent(new HedgeKey(model, settings),
                key -> settings.toHedgePolicy(settings.toHedgeBudget(clock)));
    }

    /**
     * Drops the bulkhead and the recent latency of the model whose breaker is {@code name} (the model
     * is no longer served); calls holding the bulkhead finish under it.
     */
    void drop(String name) {
        bulkheads.remove(name);
        latencies.remove(name);
    }

    /** Drops the bulkheads and budgets that {@code config} no longer uses; the others keep their counts. */
    void retain(AgentfuseConfig config) {
        Set<String> bulkheadNames = new HashSet<>(List.of(SUBAGENTS));
        Set<BudgetKey> budgetKeys = new HashSet<>(List.of(new BudgetKey(LOCAL_TOOLS, config.retry().budget())));
        Set<HedgeKey> hedgeKeys = new HashSet<>();
        config.models().values().forEach(model -> {
            bulkheadNames.add(model.breakerId());
            budgetKeys.add(new BudgetKey("provider:" + model.provider(), model.retry().budget()));
            model.hedge().ifPresent(hedge -> hedgeKeys.add(new HedgeKey(model.breakerId(), hedge)));
        });
        config.mcpServers().keySet().forEach(server -> budgetKeys.add(new BudgetKey("mcp:" + server,
                config.retry().budget())));
        bulkheads.keySet().retainAll(bulkheadNames);
        budgets.keySet().retainAll(budgetKeys);
        hedges.keySet().retainAll(hedgeKeys);
        // A model served without an entry (a family name) keeps its latency until the next reload drops it.
        latencies.keySet().retainAll(bulkheadNames);
    }
}
