package io.agentfuse.gateway.pipeline;

import io.agentfuse.config.AgentfuseConfig;
import io.agentfuse.config.LongContextBeta;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.MultiMap;

import java.util.Map;

/**
 * The context window a step of a request is held to when its caller asks for a larger one than the
 * model's own: Anthropic's 1M beta ({@link LongContextBeta}), honoured for a step whose request carries
 * the caller's {@code anthropic-beta} to its provider — an Anthropic or a Vertex AI Claude step
 * ({@link Dialect#forwardedHeaders}) — and so for no other: a fallback to another dialect keeps its own
 * window and is fitted to it; a Bedrock step too, since Converse is not sent the header. The context
 * ladder, the media limits and the fitting of fallbacks all read the window from the step's model, so
 * the step gets a copy of its model with the window it has for this request. Routes are kept across
 * requests, so they are found by the model as served, never by such a copy.
 *
 * <p>Stateless and thread-safe.
 */
final class CallerWindow {

    private static final String BETA_HEADER = "anthropic-beta";

    private CallerWindow() {
    }

    /** {@code model} as a step whose request carries {@code forwarded} (the headers sent to its provider) takes it. */
    static ModelConfig of(ModelConfig model, Map<String, String> forwarded) {
        int window = LongContextBeta.windowOf(model, forwarded.get(BETA_HEADER));
        return window == model.contextWindow() ? model : model.withContextWindow(window);
    }

    /**
     * {@code request} with the model it asks for as its caller's {@code headers} make it for the
     * model's provider under {@code config}: what the budget and context stages judge it by.
     */
    static ModelRequest of(ModelRequest request, AgentfuseConfig config, MultiMap headers) {
        ModelConfig model = request.model();
        ProviderConfig provider = config.providers().get(model.provider());
        if (headers.get(BETA_HEADER) == null || provider == null) {
            return request; // the common case: no beta asked for, nothing to look up
        }
        Dialect dialect = Dialects.forProvider(provider.type().name(), request.dialect(), model.upstreamModel()).orElse(null);
        ModelConfig sized = dialect == null ? model : of(model, dialect.forwardedHeaders(headers));
        return sized == model ? request : new ModelRequest(request.chat(), sized, request.subagent(), request.context(),
                request.forwarded(), request.budgetFallbackFrom());
    }
}
