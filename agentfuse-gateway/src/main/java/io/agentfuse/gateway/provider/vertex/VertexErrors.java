package io.agentfuse.gateway.provider.vertex;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.provider.gemini.GeminiErrors;

/**
 * Vertex AI's errors: Google's ({@code {"error": {"code", "message", "status"}}}) for what Vertex
 * itself refuses (authentication, quota: 429 {@code RESOURCE_EXHAUSTED}), and, for Anthropic models,
 * Anthropic's ({@code {"type": "error", "error": {"type"}}}) for what the model answers. Google's
 * statuses are classified as the Gemini API's ({@link GeminiErrors}: {@code RESOURCE_EXHAUSTED} →
 * RATE_LIMITED, {@code UNAVAILABLE} → OVERLOADED); Anthropic's {@code overloaded_error} is OVERLOADED
 * and {@code rate_limit_error} RATE_LIMITED; anything else goes by its status.
 *
 * <p>Stateless and thread-safe.
 */
public final class VertexErrors {

    private VertexErrors() {
    }

    /** The outcome of a Vertex AI error answer with {@code status} and {@code body}. */
    public static Outcome outcome(int status, String body) {
        if (body != null && body.contains("\"status\"")) {
            return GeminiErrors.outcome(status, body);
        }
        if (body != null && body.contains("\"overloaded_error\"")) {
            return Outcome.OVERLOADED;
        }
        if (body != null && body.contains("\"rate_limit_error\"")) {
            return Outcome.RATE_LIMITED;
        }
        return OutcomeClassifier.ofStatus(status, body);
    }
}
