package io.agentfuse.config;

import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.core.Guard;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One configuration's guards and the models it serves, for an {@link AgentfuseRuntime}; replaced
 * whole on reload, so no guard mixes two configurations. A model of a built-in family without an
 * entry ({@link ModelFamilies#modelOf}) is served while the registry has room for its breaker (its
 * limit on {@code model:*} breakers made on demand), and forgotten when the registry drops that
 * breaker. Thread-safe.
 */
final class RuntimeGeneration {

    private final AgentfuseConfig config;
    private final CircuitBreakerRegistry registry;
    private final Map<String, Guard> guards = new ConcurrentHashMap<>();
    private final Map<String, CircuitBreakerConfig> breakerConfigs = new ConcurrentHashMap<>();
    private final Map<String, ContextBudget> contextBudgets = new ConcurrentHashMap<>();
    /** The family models served, by name; writers lock it, so that two threads make one breaker for a name. */
    private final Map<String, ModelConfig> familyModels = new ConcurrentHashMap<>();

    RuntimeGeneration(AgentfuseConfig config, CircuitBreakerRegistry registry) {
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

    /** The names of the family models served. */
    Iterable<String> familyModelNames() {
        return familyModels.keySet();
    }

    /** The model {@code name}: configured, a family model served already, or one the registry has room for. */
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
}
