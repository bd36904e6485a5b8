package io.agentfuse.config;

import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Guard;
import io.agentfuse.core.GuardBuilder;
import io.agentfuse.core.retry.RetryBudget;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The live objects a configuration stands for: a {@link CircuitBreakerRegistry} with one breaker
 * per model ({@code model:<model>}) and per tool ({@code tool:<server>/<tool>}, {@code tool:<tool>}),
 * and a {@link Guard} for each, composing the model's or tool's retry, breaker, bulkhead and
 * timeout; plus each model's {@link ContextBudget} and a {@link PermissionBreaker} per session. {@link #reload} swaps in a new configuration and keeps the state of every breaker
 * whose settings did not change, so a hot reload never closes an open breaker by accident.
 *
 * <p>What is shared: a model's bulkhead (its {@code maxConcurrent}) is one object for all its
 * guards; a retry budget is shared by every guard that calls the same upstream (one per provider,
 * one per MCP server, one for tools outside MCP servers), as a budget must be to stop a retry
 * storm. Tool retries wait as the top-level {@code retry} says, with the tool's own attempt count.
 * Model breakers and the breakers of tools that {@code tools:} names are created at once, so the
 * admin API lists them; others when their tool is first called.
 *
 * <p>Thread-safe: guards may be fetched from any thread; {@code reload} calls are serialised.
 * Guards are cheap to fetch (a few map lookups) but callers may hold on to one per request.
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.load(file)).build();
 * String answer = runtime.modelGuard("claude-sonnet-4").execute(() -> client.complete(prompt));
 * ToolResult result = runtime.mcpToolGuard("search", "web_search").execute(() -> callTool(request));
 * ReloadReport report = runtime.reload(ConfigLoader.load(file));
 * }</pre>
 */
public final class AgentfuseRuntime {

    private static final String SUBAGENTS = "subagents";
    private static final String LOCAL_TOOLS = "tools";

    private final CircuitBreakerRegistry registry;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Sleeper sleeper;
    private final ToLongFunction<Object> tokens;
    private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();
    private final Map<BudgetKey, RetryBudget> budgets = new ConcurrentHashMap<>();
    private volatile Generation current;

    /** Budgets are shared per upstream, and only between guards that agree on the budget's settings. */
    private record BudgetKey(String upstream, RetryConfig.Budget settings) {
    }

    /** One configuration's guards; replaced whole on reload, so no guard mixes two configurations. */
    private record Generation(AgentfuseConfig config, Map<String, Guard> guards,
                              Map<String, CircuitBreakerConfig> breakerConfigs,
                              Map<String, ContextBudget> contextBudgets) {

        Generation(AgentfuseConfig config) {
            this(config, new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        }

        ModelConfig model(String name) {
            return config.model(name)
                    .orElseThrow(() -> new IllegalArgumentException("model " + name + " is not configured"));
        }
    }

    AgentfuseRuntime(AgentfuseRuntimeBuilder builder) {
        this.clock = builder.clock;
        this.scheduler = builder.scheduler;
        this.sleeper = builder.sleeper;
        this.tokens = builder.tokens;
        this.registry = CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(ConfigDefaults.MODEL_BREAKER.toCircuitBreakerConfig())
                .template(BreakerPlan.TOOL_PREFIX + "*", ConfigDefaults.TOOL_BREAKER.toCircuitBreakerConfig())
                .build();
        reload(builder.config);
    }

    /** A builder for the runtime of {@code config}. */
    public static AgentfuseRuntimeBuilder builder(AgentfuseConfig config) {
        return new AgentfuseRuntimeBuilder(config);
    }

    /** The configuration in force. */
    public AgentfuseConfig config() {
        return current.config();
    }

    /** Every breaker, for the admin API and metrics; add listeners here to see all transitions. */
    public CircuitBreakerRegistry registry() {
        return registry;
    }

    /**
     * The guard of calls to {@code model}: its retry (with the provider's budget), its breaker
     * {@code model:<model>}, its bulkhead and its timeout.
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public Guard modelGuard(String model) {
        Generation generation = current;
        ModelConfig settings = generation.model(model);
        // Everything a guard needs is built only when the cached guard is missing or stale.
        return guard(generation, settings.breakerId(), settings.breaker(), breaker -> builder(settings.breakerId())
                .retry(settings.retry().toRetryPolicy(budget("provider:" + settings.provider(), settings.retry().budget())))
                .circuitBreaker(breaker)
                .bulkhead(bulkhead(settings.breakerId(), settings.maxConcurrent()))
                .timeout(settings.timeout())
                .tokens(tokens));
    }

    /**
     * The guard of calls to the tool {@code tool} of the MCP server {@code server}.
     *
     * @throws IllegalArgumentException if {@code server} is not configured
     */
    public Guard mcpToolGuard(String server, String tool) {
        Generation generation = current;
        McpServerConfig serverConfig = generation.config().mcpServers().get(server);
        if (serverConfig == null) {
            throw new IllegalArgumentException("MCP server " + server + " is not configured");
        }
        return toolGuard(generation, serverConfig.breakerId(tool), serverConfig.tool(tool), "mcp:" + server);
    }

    /**
     * The guard the MCP proxy runs {@code tools/call} of {@code tool} under: like
     * {@link #mcpToolGuard(String, String)}, but it retries only when {@code idempotent} (the
     * server's {@code annotations.idempotentHint}) or when the tool's {@code tools:} entry names
     * {@code retries}; otherwise it makes one attempt. Both forms share the tool's breaker.
     *
     * @throws IllegalArgumentException if {@code server} is not configured
     */
    public Guard mcpToolGuard(String server, String tool, boolean idempotent) {
        Generation generation = current;
        McpServerConfig serverConfig = server(generation, server);
        ToolConfig settings = serverConfig.tool(tool);
        int attempts = settings.maxAttempts(idempotent);
        if (attempts == settings.maxAttempts()) {
            return toolGuard(generation, serverConfig.breakerId(tool), settings, "mcp:" + server);
        }
        String name = serverConfig.breakerId(tool);
        return guard(generation, name + "#once", name, settings.circuitBreaker(), breaker -> builder(name)
                .retry(RetryPolicy.none())
                .circuitBreaker(breaker)
                .timeout(settings.timeout()));
    }

    /**
     * The breaker of the transport of the MCP server {@code server}, {@code mcp:<server>}: refused
     * connections, resets and 5xx answers of any method count here, a tool's {@code isError}
     * results do not. It trips like the server's tool breakers ({@code mcpServers.<server>.circuitBreaker}).
     *
     * @throws IllegalArgumentException if {@code server} is not configured
     */
    public CircuitBreaker mcpServerBreaker(String server) {
        Generation generation = current;
        McpServerConfig serverConfig = server(generation, server);
        CircuitBreakerConfig settings = generation.breakerConfigs().computeIfAbsent(serverConfig.serverBreakerId(),
                key -> serverConfig.defaults().circuitBreaker().toCircuitBreakerConfig());
        CircuitBreaker breaker = registry.breaker(serverConfig.serverBreakerId(), settings);
        return breaker.config().equals(settings) ? breaker : registry.replace(serverConfig.serverBreakerId(), settings);
    }

    private static McpServerConfig server(Generation generation, String server) {
        McpServerConfig serverConfig = generation.config().mcpServers().get(server);
        if (serverConfig == null) {
            throw new IllegalArgumentException("MCP server " + server + " is not configured");
        }
        return serverConfig;
    }

    /** The guard of calls to a tool outside MCP servers, named {@code tool:<tool>}. */
    public Guard toolGuard(String tool) {
        Generation generation = current;
        return toolGuard(generation, BreakerPlan.TOOL_PREFIX + tool, generation.config().tool(tool), LOCAL_TOOLS);
    }

    /**
     * The context ladder of {@code model}: the {@code context:} thresholds over the model's
     * {@code contextWindow}.
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public ContextBudget contextBudget(String model) {
        Generation generation = current;
        ModelConfig settings = generation.model(model);
        return generation.contextBudgets().computeIfAbsent(model, key ->
                ContextBudget.of(generation.config().context().toContextConfig(), settings.contextWindow()));
    }

    /**
     * A builder of one session's permission breaker, set up with the {@code permissions:} limits
     * and this runtime's clock; add the session's categorizer and auto-approve policy, then build.
     * Each agent session needs its own: the breaker counts one user's denials.
     */
    public PermissionBreaker.Builder permissionBreaker() {
        return PermissionBreaker.builder().config(current.config().permissions().toPermissionConfig()).clock(clock);
    }

    /** The bulkhead of subagent calls ({@code subagents.maxConcurrent}). */
    public Bulkhead subagentBulkhead() {
        return bulkhead(SUBAGENTS, current.config().subagents().maxConcurrent());
    }

    /**
     * Puts {@code config} in force. Breakers whose settings are unchanged keep their state;
     * changed ones start afresh; those of models and MCP servers no longer configured are removed.
     * Guards fetched afterwards use the new settings; calls already running finish under the old.
     */
    public synchronized ReloadReport reload(AgentfuseConfig config) {
        Objects.requireNonNull(config, "config");
        var plan = new BreakerPlan(config);
        Map<String, CircuitBreakerConfig> wanted = plan.eager();
        var removed = new ArrayList<String>();
        for (CircuitBreaker existing : registry.all()) {
            String name = existing.name();
            if (BreakerPlan.isManaged(name) && !wanted.containsKey(name)) {
                plan.settingsOf(name).ifPresentOrElse(
                        settings -> wanted.put(name, settings.toCircuitBreakerConfig()),
                        () -> removed.add(name));
            }
        }
        removed.forEach(registry::remove);
        var added = new ArrayList<String>();
        var kept = new ArrayList<String>();
        var replaced = new ArrayList<String>();
        var next = new Generation(config);
        wanted.forEach((name, breakerConfig) -> {
            CircuitBreaker before = registry.find(name).orElse(null);
            CircuitBreaker after = registry.replace(name, breakerConfig);
            (before == null ? added : before == after ? kept : replaced).add(name);
            next.breakerConfigs().put(name, after.config());
        });
        retainShared(config);
        current = next;
        removed.sort(null);
        return new ReloadReport(added, kept, replaced, removed);
    }

    private Guard toolGuard(Generation generation, String name, ToolConfig tool, String upstream) {
        RetryConfig retry = generation.config().retry();
        return guard(generation, name, tool.circuitBreaker(), breaker -> builder(name)
                .retry(retry.toRetryPolicy(budget(upstream, retry.budget())).toBuilder()
                        .maxAttempts(tool.maxAttempts())
                        .build())
                .circuitBreaker(breaker)
                .timeout(tool.timeout()));
    }

    /**
     * The cached guard for {@code name}, rebuilt when its breaker is no longer the registry's
     * (replaced by a reload, or evicted while idle and created anew).
     */
    private Guard guard(Generation generation, String name, BreakerConfig settings,
                        Function<CircuitBreaker, GuardBuilder> build) {
        return guard(generation, name, name, settings, build);
    }

    /** Like the above, caching the guard under {@code cacheKey} (one breaker may serve two guards). */
    private Guard guard(Generation generation, String cacheKey, String name, BreakerConfig settings,
                        Function<CircuitBreaker, GuardBuilder> build) {
        CircuitBreakerConfig breakerConfig = generation.breakerConfigs()
                .computeIfAbsent(name, key -> settings.toCircuitBreakerConfig());
        CircuitBreaker breaker = registry.breaker(name, breakerConfig);
        if (breaker.config() != breakerConfig && generation == current && !breaker.config().equals(breakerConfig)) {
            // created under the previous configuration while a reload was scanning the registry
            breaker = registry.replace(name, breakerConfig);
        }
        CircuitBreaker registered = breaker;
        Guard cached = generation.guards().get(cacheKey);
        if (cached != null && cached.circuitBreaker() == registered) {
            return cached;
        }
        return generation.guards().compute(cacheKey, (key, existing) ->
                existing != null && existing.circuitBreaker() == registered ? existing : build.apply(registered).build());
    }

    private GuardBuilder builder(String name) {
        return Guard.builder(name).clock(clock).scheduler(scheduler).sleeper(sleeper);
    }

    private Bulkhead bulkhead(String name, int maxConcurrent) {
        return bulkheads.compute(name, (key, existing) ->
                existing != null && existing.maxConcurrent() == maxConcurrent ? existing : Bulkhead.of(key, maxConcurrent));
    }

    private RetryBudget budget(String upstream, RetryConfig.Budget settings) {
        return budgets.computeIfAbsent(new BudgetKey(upstream, settings), key -> settings.toRetryBudget(clock));
    }

    /** Drops the bulkheads and budgets that {@code config} no longer uses; the others keep their counts. */
    private void retainShared(AgentfuseConfig config) {
        Set<String> bulkheadNames = new HashSet<>(List.of(SUBAGENTS));
        Set<BudgetKey> budgetKeys = new HashSet<>(List.of(new BudgetKey(LOCAL_TOOLS, config.retry().budget())));
        config.models().values().forEach(model -> {
            bulkheadNames.add(model.breakerId());
            budgetKeys.add(new BudgetKey("provider:" + model.provider(), model.retry().budget()));
        });
        config.mcpServers().keySet().forEach(server -> budgetKeys.add(new BudgetKey("mcp:" + server,
                config.retry().budget())));
        bulkheads.keySet().retainAll(bulkheadNames);
        budgets.keySet().retainAll(budgetKeys);
    }
}
