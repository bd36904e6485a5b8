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
        if (isGoogles(body)) {
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

    /** Whether {@code body} is an error of Vertex itself, in Google's shape (it has a {@code status}), not the hosted model's. */
    public static boolean isGoogles(String body) {
        return body != null && body.contains("\"status\"");
    }

    /**
     * Whether a refusal says the access token itself is no longer valid (expired early, revoked, its
     * account's key deleted), so that a fresh one may be accepted: Google's 401 {@code UNAUTHENTICATED},
     * or a 403 whose {@code WWW-Authenticate} says {@code error="invalid_token"} (RFC 6750). A 403
     * {@code PERMISSION_DENIED} refuses a valid token (a missing role, another project): a new one would be refused too.
     */
    public static boolean refusesToken(int status, String wwwAuthenticate, String body) {
        if (status == 401) {
            return true;
        }
        return status == 403 && (wwwAuthenticate != null && wwwAuthenticate.contains("invalid_token")
                || body != null && body.contains("\"UNAUTHENTICATED\""));
    }
}
