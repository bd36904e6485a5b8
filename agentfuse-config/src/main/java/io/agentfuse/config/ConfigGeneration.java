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
 * without an entry (at most {@value ConfigDefaults#UNCONFIGURED_FAMILY_MODELS}, so that a client
 * sending invented names cannot grow it). Replaced whole on reload, so no guard mixes two
 * configurations.
 *
 * <p>Thread-safe: the caches are concurrent maps; admitting a family model holds a lock.
 */
record ConfigGeneration(AgentfuseConfig config, Map<String, Guard> guards,
                        Map<String, CircuitBreakerConfig> breakerConfigs,
                        Map<String, ContextBudget> contextBudgets, Map<String, ModelConfig> familyModels) {

    ConfigGeneration(AgentfuseConfig config) {
        this(config, new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>(),
                new ConcurrentHashMap<>());
    }

    /** The model {@code name} is served by: its entry, or a family model admitted now or before. */
    Optional<ModelConfig> find(String name) {
        ModelConfig model = config.models().get(name);
        if (model == null) {
            model = familyModels.get(name);
        }
        return model != null ? Optional.of(model) : familyModel(name);
    }

    /** A family model not seen before, while fewer than the bound are in use. */
    private Optional<ModelConfig> familyModel(String name) {
        // Once the bound is reached, a client sending invented names costs no lock and no model.
        if (familyModels.size() >= ConfigDefaults.UNCONFIGURED_FAMILY_MODELS) {
            return Optional.empty();
        }
        Optional<ModelConfig> model = ModelFamilies.modelOf(name, config.breakers(), config.retry());
        if (model.isEmpty()) {
            return model;
        }
        synchronized (familyModels) {
            ModelConfig known = familyModels.get(name);
            if (known != null) {
                return Optional.of(known);
            }
            if (familyModels.size() >= ConfigDefaults.UNCONFIGURED_FAMILY_MODELS) {
                return Optional.empty();
            }
            familyModels.put(name, model.get());
            return model;
        }
    }

    ModelConfig model(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("model " + name + " is not configured"));
    }

    /**
     * Takes over what {@code previous} served: its family models stay served, and their breakers
     * with their state (a reload never closes an open breaker by accident); so does a configured
     * model of a family name that the reload removed, while the bound has room. Any other model
     * breaker of {@code registry} that this generation does not serve is removed; returns their names.
     */
    List<String> carryFamilyModels(ConfigGeneration previous, CircuitBreakerRegistry registry) {
        if (previous != null) {
            previous.familyModels().keySet().stream()
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
            // find admits a family name while the bound has room: a configured model the reload removed
            if (!config.models().containsKey(model) && find(model).isEmpty()) {
                registry.remove(name);
                removed.add(name);
            }
        }
        return removed;
    }
}
