package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.fallback.StepFailure;
import io.vertx.core.http.HttpServerResponse;

import java.util.List;

/**
 * Puts the gateway's own headers on a model answer, success or error: {@code x-agentfuse-model}
 * (the configured model that answered, or whose 4xx is passed through), {@code x-agentfuse-attempts}
 * (upstream calls over all steps), {@code x-agentfuse-fallbacks} (see {@link FallbackHeader}) and
 * {@code x-agentfuse-context} (the context-budget level, when the context stage set one) and
 * {@code x-agentfuse-compaction} (what compaction did, when the request was compacted).
 *
 * <p>Stateless and thread-safe.
 */
final class ResponseHeaders {

    /** What every name of the gateway's own headers begins with. */
    static final String PREFIX = "x-agentfuse-";
    static final String MODEL = PREFIX + "model";
    static final String ATTEMPTS = PREFIX + "attempts";
    static final String CONTEXT = PREFIX + "context";
    static final String COMPACTION = PREFIX + "compaction";

    private ResponseHeaders() {
    }

    /**
     * @param model  the answering model, or {@code null} when none answered
     * @param passed the steps passed over
     */
    static void put(HttpServerResponse response, ModelRequest request, CallTrace trace, String model,
                    List<StepFailure> passed) {
        if (model != null) {
            response.putHeader(MODEL, model);
        }
        response.putHeader(ATTEMPTS, Integer.toString(trace.attempts()));
        String fallbacks = FallbackHeader.format(passed);
        if (fallbacks != null) {
            response.putHeader(FallbackHeader.NAME, fallbacks);
        }
        if (request != null && request.context() != null) {
            response.putHeader(CONTEXT, request.context().level());
            if (request.context().compaction() != null) {
                response.putHeader(COMPACTION, request.context().compaction());
            }
        }
    }
}
