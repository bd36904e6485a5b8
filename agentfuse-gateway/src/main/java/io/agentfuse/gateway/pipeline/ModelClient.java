package io.agentfuse.gateway.pipeline;

import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ChatResponse;
import io.vertx.core.Future;

/**
 * Complete (non-streamed) model calls through the gateway's own pipeline: the model's fallback
 * chain, each step behind its guard (breaker, retry, bulkhead, timeout), translated to each
 * step's provider dialect. For work the gateway does on its own behalf, such as summarising a
 * conversation with {@code context.compactModel}.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * models.complete(Dialects.OPENAI.parseRequest(summaryRequest))
 *       .onSuccess(answer -> useSummary(answer.content()));
 * }</pre>
 */
@FunctionalInterface
public interface ModelClient {

    /**
     * The answer to {@code request}, whose {@code model} must be configured and which must not ask
     * to stream. Fails as the gateway would answer: a {@link io.agentfuse.gateway.http.GatewayException}
     * ({@code invalid_request} for a streaming request, {@code model_not_found}, or the chain's
     * {@code circuit_open} / {@code timeout} / {@code all_fallbacks_failed} …), an upstream 4xx as
     * {@link io.agentfuse.gateway.upstream.UpstreamStatusException}.
     */
    Future<ChatResponse> complete(ChatRequest request);
}
