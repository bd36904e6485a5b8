package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.gateway.budget.ClientKeys;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.tracing.Tracing;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The pipeline's stages and services that one {@link ChatExchange} runs through, handed to it
 * as one value so that an exchange depends on its stages, not on the {@link ChatPipeline} that
 * assembled them (and can be run on its own in a test).
 *
 * <p>Immutable; every part is thread-safe and shared by all exchanges.
 *
 * @param config   the configuration in force, read anew for every request (reloads)
 * @param context  the context-budget stage
 * @param subagents the subagent limits
 * @param router   plans the fallback chain
 * @param chains   runs the planned chain through the guards and the pooled upstream client
 * @param metrics  where requests and attempts are counted
 * @param clock    stamps translated answers
 * @param inFlight the exchanges under way, for a stopping gateway to end
 * @param tracing  where each exchange's trace goes ({@link Tracing#OFF}: nowhere)
 * @param budgets  who a request comes from, and the budgets it reserves against
 */
record ExchangeStages(Supplier<AgentfuseConfig> config, ContextStage context, SubagentLimit subagents,
                      ModelRouter router, ChainExecution chains, GatewayMetrics metrics, Clock clock,
                      InFlightExchanges inFlight, Tracing tracing, BudgetStage budgets) {

    /**
     * Stages whose exchanges are tracked in a list of their own and not traced, whose budgets count in
     * memory, callers told by the configuration's {@code clients:}.
     */
    ExchangeStages(Supplier<AgentfuseConfig> config, ContextStage context, SubagentLimit subagents,
                   ModelRouter router, ChainExecution chains, GatewayMetrics metrics, Clock clock) {
        this(config, context, subagents, router, chains, metrics, clock, new InFlightExchanges(), Tracing.OFF,
                new BudgetStage(config, router.models(), new LocalBudgetLedger(clock), new ClientKeys(config), context, clock));
    }

    ExchangeStages {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(subagents, "subagents");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(chains, "chains");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(inFlight, "inFlight");
        Objects.requireNonNull(tracing, "tracing");
        Objects.requireNonNull(budgets, "budgets");
    }
}
