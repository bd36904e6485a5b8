package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.ModelConfig;

import java.util.List;

/**
 * The fallback chain of one requested model under one configuration, for one kind of caller (a
 * subagent's requests may fall back elsewhere): its models in order, and the guarded chain made
 * for them once rather than for every request ({@link ChainExecution}). A reload makes new routes.
 *
 * <p>Thread-safe: two requests that find no chain yet may both make one; the last one kept wins,
 * and either serves.
 */
final class Route {

    private final List<ModelConfig> models;
    private volatile ChainExecution.Compiled compiled;

    Route(List<ModelConfig> models) {
        this.models = List.copyOf(models);
    }

    /** The models of the chain, the requested one first. */
    List<ModelConfig> models() {
        return models;
    }

    /** The guarded chain last made for this route, or {@code null}. */
    ChainExecution.Compiled compiled() {
        return compiled;
    }

    void compiled(ChainExecution.Compiled chain) {
        this.compiled = chain;
    }
}
