package io.agentfuse.config;

import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.Clock;
import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.retry.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
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

    private final CircuitBreakerRegistry registry;
    private final Clock clock;
    private final ToLongFunction<Object> tokens;
    private final SharedLimits shared;
    private final CachedGuards guards;
    private final List<Consumer<ModelConfig>> droppedListeners = new CopyOnWriteArrayList<>();
    private volatile ConfigGeneration current;

    AgentfuseRuntime(AgentfuseRuntimeBuilder builder) {
        this.clock = builder.clock;
        this.tokens = builder.tokens;
        this.shared = new SharedLimits(clock);
        CircuitBreakerRegistry.Builder breakers = CircuitBreakerRegistry.builder()
                .clock(clock)
                .defaultConfig(ConfigDefaults.MODEL_BREAKER.toCircuitBreakerConfig())
                .template(BreakerPlan.TOOL_PREFIX + "*", ConfigDefaults.TOOL_BREAKER.toCircuitBreakerConfig())
                // configured models are declared (replace), so only the family models made on demand count
                .limit(BreakerPlan.MODEL_PREFIX + "*", ConfigDefaults.UNCONFIGURED_FAMILY_MODELS);
        if (builder.stateStore != null) {
            breakers.stateStore(builder.stateStore);
        }
        this.registry = breakers.build();
        this.guards = new CachedGuards(registry, () -> current, shared, builder);
        registry.addListener(new CircuitBreakerListener() {
            @Override
            public void onRemoved(CircuitBreaker breaker) {
                forgetFamilyModel(breaker.name());
            }
        });
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
     * The model a request for {@code name} is served by: its entry under {@code models:}, or, for a
     * family name without one, the model {@link ModelFamilies#modelOf} makes of it with a breaker of
     * its own — at most {@value ConfigDefaults#UNCONFIGURED_FAMILY_MODELS} at once (the registry's
     * limit on {@code model:*}; an idle one makes room); empty beyond them and for any other name.
     */
    public Optional<ModelConfig> model(String name) {
        return current.find(name);
    }

    /**
     * Tells {@code listener} of each family model no longer served, its breaker dropped to make room
     * for another name, so that what a caller keeps per model (routes, meters) can go; called on the
     * thread that made the room, it must be fast and must not throw.
     */
    public void onFamilyModelDropped(Consumer<ModelConfig> listener) {
        droppedListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The registry dropped the breaker {@code breakerId}: if it was a family model's, that model is no longer served. */
    private void forgetFamilyModel(String breakerId) {
        ModelConfig dropped = breakerId.startsWith(BreakerPlan.MODEL_PREFIX)
                ? current.forget(breakerId.substring(BreakerPlan.MODEL_PREFIX.length()), breakerId) : null;
        if (dropped != null) {
            shared.drop(breakerId);
            droppedListeners.forEach(listener -> listener.accept(dropped));
        }
    }

    /**
     * The guard of calls to {@code model}: its retry (with the provider's budget), its breaker
     * {@code model:<model>}, its bulkhead, its timeout, and its recent latency (kept across reloads),
     * by which a deadline judges what fits and an adaptive hedge what is slow.
     *
     * @throws IllegalArgumentException if {@code model} is neither configured nor served by {@link #model}
     */
    public Guard modelGuard(String model) {
        ConfigGeneration generation = current;
        ModelConfig settings = generation.model(model);
        // Everything a guard needs is built only when the cached guard is missing or stale.
        return guards.guard(generation, settings.breakerId(), settings.breakerId(), settings.breaker(),
                breaker -> guards.builder(settings.breakerId())
                .retry(settings.retry().toRetryPolicy(shared.budget("provider:" + settings.provider(), settings.retry().budget())))
                .circuitBreaker(breaker)
                .bulkhead(shared.bulkhead(settings.breakerId(), settings.maxConcurrent()))
                .timeout(settings.timeout())
                .latencyEstimate(shared.latency(settings.breakerId()))
                .tokens(tokens));
    }

    /**
     * The deadline of a request for {@code model} that starts now (docs/design.md §13): the model's
     * {@code deadline}, shortened to {@code callerLimit} when that is sooner (a caller may shorten
     * it, never lengthen it); {@link Deadline#none()} when neither is set.
     *
     * @param callerLimit the time the caller allows ({@code x-agentfuse-deadline}), or {@code null}
     * @throws IllegalArgumentException if {@code model} is neither configured nor served by {@link #model}
     */
    public Deadline deadline(String model, Duration callerLimit) {
        Deadline configured = current.model(model).deadline().map(limit -> Deadline.after(limit, clock)).orElse(Deadline.none());
        return callerLimit == null ? configured : configured.sooner(Deadline.after(callerLimit, clock));
    }

    /**
     * The hedge policy of requests for {@code model} ({@code models.<m>.hedge}), with the model's
     * own budget (kept across reloads while its settings stay); empty when it has none.
     *
     * @throws IllegalArgumentException if {@code model} is neither configured nor served by {@link #model}
     */
    public Optional<HedgePolicy> hedgePolicy(String model) {
        ModelConfig settings = current.model(model);
        return settings.hedge().map(hedge -> shared.hedge(settings.breakerId(), hedge));
    }

    /**
     * The guard of calls to the tool {@code tool} of the MCP server {@code server}.
     *
     * @throws IllegalArgumentException if {@code server} is not configured
     */
    public Guard mcpToolGuard(String server, String tool) {
        ConfigGeneration generation = current;
        McpServerConfig serverConfig = server(generation, server);
        return guards.toolGuard(generation, serverConfig.breakerId(tool), serverConfig.tool(tool), "mcp:" + server);
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
        ConfigGeneration generation = current;
        McpServerConfig serverConfig = server(generation, server);
        ToolConfig settings = serverConfig.tool(tool);
        int attempts = settings.maxAttempts(idempotent);
        if (attempts == settings.maxAttempts()) {
            return guards.toolGuard(generation, serverConfig.breakerId(tool), settings, "mcp:" + server);
        }
        String name = serverConfig.breakerId(tool);
        return guards.guard(generation, name + "#once", name, settings.circuitBreaker(), breaker -> guards.builder(name)
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
        ConfigGeneration generation = current;
        McpServerConfig serverConfig = server(generation, server);
        CircuitBreakerConfig settings = generation.breakerConfigs().computeIfAbsent(serverConfig.serverBreakerId(),
                key -> serverConfig.defaults().circuitBreaker().toCircuitBreakerConfig());
        CircuitBreaker breaker = registry.breaker(serverConfig.serverBreakerId(), settings);
        return breaker.config().equals(settings) ? breaker : registry.replace(serverConfig.serverBreakerId(), settings);
    }

    private static McpServerConfig server(ConfigGeneration generation, String server) {
        McpServerConfig serverConfig = generation.config().mcpServers().get(server);
        if (serverConfig == null) {
            throw new IllegalArgumentException("MCP server " + server + " is not configured");
        }
        return serverConfig;
    }

    /** The guard of calls to a tool outside MCP servers, named {@code tool:<tool>}. */
    public Guard toolGuard(String tool) {
        ConfigGeneration generation = current;
        return guards.toolGuard(generation, BreakerPlan.TOOL_PREFIX + tool, generation.config().tool(tool), SharedLimits.LOCAL_TOOLS);
    }

    /**
     * The context ladder of {@code model}: the {@code context:} thresholds over the model's
     * {@code contextWindow}.
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public ContextBudget contextBudget(String model) {
        ConfigGeneration generation = current;
        ModelConfig settings = generation.model(model);
        return generation.contextBudgets().computeIfAbsent(model, key ->
                ContextBudget.of(generation.config().context().toContextConfig(), settings.contextWindow()));
    }

    /**
     * The token counter of {@code model}: {@link TokenCounter#forModel} of the model it calls
     * upstream, so that a configured name ({@code planner}) counts as the vendor's model behind it
     * does (Claude Opus 4.7 and later make up to 1.35× the tokens of the earlier Claude models).
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public TokenCounter tokenCounter(String model) {
        return TokenCounter.forModel(current.model(model).upstreamModel());
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
        return shared.bulkhead(SharedLimits.SUBAGENTS, current.config().subagents().maxConcurrent());
    }

    /**
     * Puts {@code config} in force. Breakers whose settings are unchanged keep their state;
     * changed ones start afresh; those of models and MCP servers no longer configured are removed.
     * Guards fetched afterwards use the new settings; calls already running finish under the old.
     */
    public synchronized ReloadReport reload(AgentfuseConfig config) {
        Objects.requireNonNull(config, "config");
        var next = new ConfigGeneration(config, registry);
        ReloadReport report = new BreakerPlan(config).apply(registry, next.breakerConfigs());
        List<String> unserved = next.carryFamilyModels(current, registry);
        shared.retain(config);
        current = next;
        return report.withRemoved(unserved);
    }
}
