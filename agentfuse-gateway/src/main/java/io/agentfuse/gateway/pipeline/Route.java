package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.upstream.ProviderEndpoint;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fallback chain of one requested model under one configuration, for one kind of caller (a
 * subagent's requests may fall back elsewhere): its models in order, their providers as each
 * dialect's callers reach them, and the guarded chain made for them — each once rather than for
 * every request ({@link ChainExecution}). A reload makes new routes.
 *
 * <p>Thread-safe: two requests that find no chain yet may both make one; the last one kept wins,
 * and either serves.
 */
final class Route {

    private final List<ModelConfig> models;
    /** The models' providers as callers of each dialect reach them (few dialects: a handful of entries). */
    private final Map<Dialect, List<ProviderEndpoint>> endpoints = new ConcurrentHashMap<>();
    private volatile ChainExecution.Compiled compiled;

    Route(List<ModelConfig> models) {
        this.models = List.copyOf(models);
    }

    /** The models of the chain, the requested one first. */
    List<ModelConfig> models() {
        return models;
    }

    /** The providers of {@link #models()}, in order, for callers of {@code caller}; {@code null} until {@link #endpoints(Dialect, List)}. */
    List<ProviderEndpoint> endpoints(Dialect caller) {
        return endpoints.get(caller);
    }

    void endpoints(Dialect caller, List<ProviderEndpoint> providers) {
        endpoints.put(caller, List.copyOf(providers));
    }

    /** The guarded chain last made for this route, or {@code null}. */
    ChainExecution.Compiled compiled() {
        return compiled;
    }

    void compiled(ChainExecution.Compiled chain) {
        this.compiled = chain;
    }
}
