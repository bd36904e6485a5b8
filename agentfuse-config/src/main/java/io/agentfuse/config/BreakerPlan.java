package io.agentfuse.config;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The breakers a configuration asks for, by registry name, with their core settings: one per
 * model ({@code model:<model>}), one per MCP tool ({@code tool:<server>/<tool>}) and one per
 * tool outside MCP servers ({@code tool:<tool>}). Pure: the same configuration gives the same plan;
 * {@link #apply} puts a plan in force in a registry.
 */
final class BreakerPlan {

    static final String MODEL_PREFIX = "model:";
    static final String TOOL_PREFIX = "tool:";

    private final AgentfuseConfig config;

    BreakerPlan(AgentfuseConfig config) {
        this.config = config;
    }

    /** Whether the runtime manages the breaker {@code name} (other names in the registry are left alone). */
    static boolean isManaged(String name) {
        return name.startsWith(MODEL_PREFIX) || name.startsWith(TOOL_PREFIX);
    }

    /** The breakers created up front: every model, and every MCP tool that {@code tools:} names. */
    Map<String, CircuitBreakerConfig> eager() {
        var plan = new TreeMap<String, CircuitBreakerConfig>();
        config.models().values().forEach(model ->
                plan.put(model.breakerId(), model.breaker().toCircuitBreakerConfig()));
        config.mcpServers().values().forEach(server -> server.overrides().forEach((tool, settings) ->
                plan.put(server.breakerId(tool), settings.circuitBreaker().toCircuitBreakerConfig())));
        return plan;
    }

    /**
     * The settings of the managed breaker {@code name} under this configuration, or empty if the
     * configuration no longer has it (its model or MCP server is gone; a model of a built-in
     * family stays, served without an entry).
     */
    Optional<BreakerConfig> settingsOf(String name) {
        if (name.startsWith(MODEL_PREFIX)) {
            // A model of a built-in family is still served without an entry (AgentfuseRuntime#model).
            String model = name.substring(MODEL_PREFIX.length());
            return config.model(model).or(() -> ModelFamilies.modelOf(model, config.breakers(), config.retry()))
                    .map(ModelConfig::breaker);
        }
        String tool = name.substring(TOOL_PREFIX.length());
        int separator = tool.indexOf('/');
        if (separator < 0) {
            return Optional.of(config.tool(tool).circuitBreaker());
        }
        return Optional.ofNullable(config.mcpServers().get(tool.substring(0, separator)))
                .map(server -> server.tool(tool.substring(separator + 1)).circuitBreaker());
    }

    /**
     * Makes {@code registry} hold exactly the plan's breakers: breakers whose settings are unchanged
     * keep their state, changed ones start afresh, those no longer configured are removed (lazily
     * made ones the plan still covers stay). Puts every planned breaker's settings in {@code settings}.
     */
    ReloadReport apply(CircuitBreakerRegistry registry, Map<String, CircuitBreakerConfig> settings) {
        Map<String, CircuitBreakerConfig> wanted = eager();
        var removed = new ArrayList<String>();
        for (CircuitBreaker existing : registry.all()) {
            String name = existing.name();
            if (isManaged(name) && !wanted.containsKey(name)) {
                settingsOf(name).ifPresentOrElse(
                        kept -> wanted.put(name, kept.toCircuitBreakerConfig()),
                        () -> removed.add(name));
            }
        }
        removed.forEach(registry::remove);
        var added = new ArrayList<String>();
        var kept = new ArrayList<String>();
        var replaced = new ArrayList<String>();
        wanted.forEach((name, breakerConfig) -> {
            CircuitBreaker before = registry.find(name).orElse(null);
            CircuitBreaker after = registry.replace(name, breakerConfig);
            (before == null ? added : before == after ? kept : replaced).add(name);
            settings.put(name, after.config());
        });
        removed.sort(null);
        return new ReloadReport(added, kept, replaced, removed);
    }
}
