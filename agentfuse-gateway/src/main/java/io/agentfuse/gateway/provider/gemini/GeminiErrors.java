package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Locale;

/**
 * Google's errors, as the Gemini API and Vertex AI send them ({@code {"error": {"code", "message",
 * "status"}}}), and what they mean for the breakers and retries:
 *
 * <table>
 *   <caption>Google statuses</caption>
 *   <tr><th>status</th><th>outcome</th></tr>
 *   <tr><td>RESOURCE_EXHAUSTED (429)</td><td>RATE_LIMITED</td></tr>
 *   <tr><td>UNAVAILABLE (503)</td><td>OVERLOADED: Gemini's "the model is overloaded"</td></tr>
 *   <tr><td>DEADLINE_EXCEEDED (504)</td><td>TIMEOUT</td></tr>
 *   <tr><td>INTERNAL, UNKNOWN (500)</td><td>SERVER_ERROR</td></tr>
 *   <tr><td>anything else</td><td>by the HTTP status ({@link OutcomeClassifier#ofStatus})</td></tr>
 * </table>
 * An invalid API key is a 400 {@code INVALID_ARGUMENT} with reason {@code API_KEY_INVALID}, which
 * {@link #isAuthFailure} tells apart from a bad request: it is the gateway's key, not the caller's request.
 *
 * <p>Stateless and thread-safe.
 */
public final class GeminiErrors {

    private GeminiErrors() {
    }

    /** The outcome of a Google error answer with HTTP {@code status} and {@code body}. */
    public static Outcome outcome(int status, String body) {
        Outcome byStatus = outcomeOf(googleStatus(body));
        return byStatus != null ? byStatus : OutcomeClassifier.ofStatus(status, body);
    }

    /** The outcome of an error a Gemini stream reported with Google status {@code type}. */
    public static Outcome streamErrorOutcome(String type) {
        Outcome outcome = outcomeOf(type);
        return outcome != null ? outcome : Outcome.SERVER_ERROR;
    }

    /** Whether an answer refuses the gateway's own credentials (401, 403, or Gemini's 400 {@code API_KEY_INVALID}). */
    public static boolean isAuthFailure(int status, String body) {
        return status == 401 || status == 403 || status == 400 && body != null && body.contains("\"API_KEY_INVALID\"");
    }

    /**
     * An error body in Google's shape for the gateway's error {@code type}: {@code code} and
     * {@code status} for what the type means, and the type itself as the reason of an {@code ErrorInfo}
     * detail (Google's place for a machine-readable cause). A Google status given as {@code type} (an
     * error relayed from a Gemini provider) keeps its own code.
     */
    public static JsonObject errorBody(String type, String message) {
        int code = switch (type) {
            case "invalid_request", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE" -> 400;
            case "UNAUTHENTICATED" -> 401;
            case "PERMISSION_DENIED" -> 403;
            case "model_not_found", "not_found", "NOT_FOUND" -> 404;
            case "request_too_large", "context_window_full" -> 413;
            case "overloaded", "subagent_limit", "RESOURCE_EXHAUSTED" -> 429;
            case "all_fallbacks_failed", "upstream_auth_failed" -> 502;
            case "circuit_open", "UNAVAILABLE" -> 503;
            case "timeout", "DEADLINE_EXCEEDED" -> 504;
            default -> 500;
        };
        String status = type.equals(type.toUpperCase(Locale.ROOT)) && !type.isEmpty() ? type : switch (code) {
            case 400, 413 -> "INVALID_ARGUMENT";
            case 404 -> "NOT_FOUND";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 502, 503 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> "INTERNAL";
        };
        JsonObject detail = new JsonObject().put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", type)
                .put("domain", "agentfuse");
        return new JsonObject().put("error", new JsonObject().put("code", code).put("message", message)
                .put("status", status).put("details", new JsonArray().add(detail)));
    }

    /** The {@code error.status} of a Google error body, or {@code null}. */
    static String googleStatus(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            Object value = Json.decodeValue(body);
            // Vertex answers some errors as a one-element array of the error object.
            JsonObject json = value instanceof JsonArray array && !array.isEmpty() && array.getValue(0) instanceof JsonObject first
                    ? first : value instanceof JsonObject object ? object : null;
            return json != null && json.getValue("error") instanceof JsonObject error ? error.getString("status") : null;
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }

    private static Outcome outcomeOf(String googleStatus) {
        if (googleStatus == null) {
            return null;
        }
        return switch (googleStatus) {
            case "RESOURCE_EXHAUSTED" -> Outcome.RATE_LIMITED;
            case "UNAVAILABLE" -> Outcome.OVERLOADED;
            case "DEADLINE_EXCEEDED" -> Outcome.TIMEOUT;
            case "INTERNAL", "UNKNOWN", "DATA_LOSS" -> Outcome.SERVER_ERROR;
            default -> null;
        };
    }
}
