package io.agentfuse.config;

import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.core.Guard;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One configuration in force in an {@link AgentfuseRuntime}, and what the runtime has built for it:
 * its guards, breaker settings and context budgets, and the models of built-in families it serves
 * without an entry. Such a model is served while the registry has room for its breaker (its limit
 * on {@code model:*} breakers made on demand, {@value ConfigDefaults#UNCONFIGURED_FAMILY_MODELS},
 * so that a client sending invented names cannot grow it), and forgotten when the registry drops
 * that breaker. Replaced whole on reload, so no guard mixes two configurations.
 *
 * <p>Thread-safe: the caches are concurrent maps; admitting or forgetting a family model holds a lock.
 */
final class ConfigGeneration {

    private final AgentfuseConfig config;
    private final CircuitBreakerRegistry registry;
    private final Map<String, Guard> guards = new ConcurrentHashMap<>();
    private final Map<String, CircuitBreakerConfig> breakerConfigs = new ConcurrentHashMap<>();
    private final Map<String, ContextBudget> contextBudgets = new ConcurrentHashMap<>();
    /** The family models served, by name; writers lock it, so that two threads make one breaker for a name. */
    private final Map<String, ModelConfig> familyModels = new ConcurrentHashMap<>();

    ConfigGeneration(AgentfuseConfig config, CircuitBreakerRegistry registry) {
        this.config = config;
        this.registry = registry;
    }

    AgentfuseConfig config() {
        return config;
    }

    /** The guards made under this configuration, by cache key. */
    Map<String, Guard> guards() {
        return guards;
    }

    /** The breaker settings of this configuration, by breaker name. */
    Map<String, CircuitBreakerConfig> breakerConfigs() {
        return breakerConfigs;
    }

    /** The context ladders of the models, by model name. */
    Map<String, ContextBudget> contextBudgets() {
        return contextBudgets;
    }

    /** The model {@code name} is served by: its entry, a family model served already, or one the registry has room for. */
    Optional<ModelConfig> find(String name) {
        ModelConfig model = config.models().get(name);
        if (model == null) {
            model = familyModels.get(name);
        }
        return model != null ? Optional.of(model) : familyModel(name);
    }

    /** {@link #find}, or an exception saying the model is not served. */
    ModelConfig model(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("model " + name + " is not configured"));
    }

    private Optional<ModelConfig> familyModel(String name) {
        Optional<ModelConfig> model = ModelFamilies.modelOf(name, config.breakers(), config.retry());
        if (model.isEmpty()) {
            return model;
        }
        synchronized (familyModels) {
            ModelConfig known = familyModels.get(name);
            if (known != null) {
                return Optional.of(known);
            }
            String breakerId = model.get().breakerId();
            CircuitBreakerConfig settings = breakerConfigs.computeIfAbsent(breakerId,
                    key -> model.get().breaker().toCircuitBreakerConfig());
            if (registry.tryBreaker(breakerId, settings).isEmpty()) {
                return Optional.empty();
            }
            familyModels.put(name, model.get());
            return model;
        }
    }

    /**
     * Forgets what was kept for the family model {@code name}, whose breaker {@code breakerId} the
     * registry dropped; returns the model, or null if it was not a family model served here.
     */
    ModelConfig forget(String name, String breakerId) {
        synchronized (familyModels) {
            ModelConfig forgotten = familyModels.remove(name);
            if (forgotten != null) {
                guards.remove(breakerId);
                breakerConfigs.remove(breakerId);
                contextBudgets.remove(name);
            }
            return forgotten;
        }
    }

    /**
     * Takes over what {@code previous} served: its family models stay served, and their breakers
     * with their state (a reload never closes an open breaker by accident); so does a configured
     * model of a family name that the reload removed (its breaker was declared, so it takes no
     * caller's place). Any other model breaker of the registry that this generation does not serve
     * is removed; returns their names.
     */
    List<String> carryFamilyModels(ConfigGeneration previous, CircuitBreakerRegistry registry) {
        if (previous != null) {
            previous.familyModels.keySet().stream()
                    .filter(model -> !config.models().containsKey(model))
                    .forEach(this::find);
        }
        var removed = new ArrayList<String>();
        for (CircuitBreaker breaker : registry.all()) {
            String name = breaker.name();
            if (!name.startsWith(BreakerPlan.MODEL_PREFIX)) {
                continue;
            }
            String model = name.substring(BreakerPlan.MODEL_PREFIX.length());
            // find serves a family name whose breaker exists: a configured model the reload removed
            if (!config.models().containsKey(model) && find(model).isEmpty()) {
                registry.remove(name);
                removed.add(name);
            }
        }
        return removed;
    }
}
