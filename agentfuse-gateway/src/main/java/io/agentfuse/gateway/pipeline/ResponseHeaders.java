package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.fallback.StepFailure;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
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
    /** The model whose hedge answered, beside a slower step of the chain (docs/design.md §13). */
    static final String HEDGED = PREFIX + "hedged";
    /** The content type of every model answer, encoded once. */
    static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");

    // The names as Vert.x writes them fastest: ASCII bytes with their hash computed once, not per answer.
    private static final CharSequence MODEL_HEADER = HttpHeaders.createOptimized(MODEL);
    private static final CharSequence ATTEMPTS_HEADER = HttpHeaders.createOptimized(ATTEMPTS);
    private static final CharSequence CONTEXT_HEADER = HttpHeaders.createOptimized(CONTEXT);
    /** {@code x-agentfuse-attempts} values up to this many are encoded once. */
    private static final CharSequence[] FEW_ATTEMPTS = new CharSequence[16];

    static {
        for (int i = 0; i < FEW_ATTEMPTS.length; i++) {
            FEW_ATTEMPTS[i] = HttpHeaders.createOptimized(Integer.toString(i));
        }
    }

    private ResponseHeaders() {
    }

    /**
     * Puts the headers on {@code response}, whose head is not written yet. Into its header map
     * directly: each {@link HttpServerResponse#putHeader} takes the connection's lock.
     *
     * @param model  the answering model, or {@code null} when none answered
     * @param passed the steps passed over
     */
    static void put(HttpServerResponse response, ModelRequest request, CallTrace trace, String model,
                    List<StepFailure> passed) {
        put(response, request, trace, model, passed, List.of());
    }

    /** The same, for an answer of {@code model}, whose request left out the caller's fields {@code dropped}. */
    static void put(HttpServerResponse response, ModelRequest request, CallTrace trace, String model,
                    List<StepFailure> passed, List<String> dropped) {
        MultiMap headers = response.headers();
        if (model != null) {
            headers.set(MODEL_HEADER, model);
        }
        int attempts = trace.attempts();
        headers.set(ATTEMPTS_HEADER, attempts >= 0 && attempts < FEW_ATTEMPTS.length ? FEW_ATTEMPTS[attempts]
                : Integer.toString(attempts));
        String fallbacks = FallbackHeader.format(passed, model, dropped);
        if (request != null && request.budgetFallbackFrom() != null) {
            fallbacks = FallbackHeader.budgetExceeded(request.budgetFallbackFrom(), fallbacks);
        }
        if (fallbacks != null) {
            headers.set(FallbackHeader.NAME, fallbacks);
        }
        if (request != null && request.context() != null) {
            headers.set(CONTEXT_HEADER, request.context().level());
            if (request.context().compaction() != null) {
                headers.set(COMPACTION, request.context().compaction());
            }
        }
    }
}
