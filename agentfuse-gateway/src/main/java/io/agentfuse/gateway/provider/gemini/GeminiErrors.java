package io.agentfuse.gateway.provider.gemini;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.dialect.ProviderErrorFields;
import io.agentfuse.gateway.http.GatewayError;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

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

    /** Google's statuses (google.rpc.Code) and the HTTP status each is sent with. */
    private static final Map<String, Integer> GOOGLE_CODES = Map.ofEntries(
            Map.entry("INVALID_ARGUMENT", 400), Map.entry("FAILED_PRECONDITION", 400), Map.entry("OUT_OF_RANGE", 400),
            Map.entry("UNAUTHENTICATED", 401), Map.entry("PERMISSION_DENIED", 403), Map.entry("NOT_FOUND", 404),
            Map.entry("ABORTED", 409), Map.entry("ALREADY_EXISTS", 409), Map.entry("RESOURCE_EXHAUSTED", 429),
            Map.entry("CANCELLED", 499), Map.entry("INTERNAL", 500), Map.entry("UNKNOWN", 500),
            Map.entry("DATA_LOSS", 500), Map.entry("UNIMPLEMENTED", 501), Map.entry("UNAVAILABLE", 503),
            Map.entry("DEADLINE_EXCEEDED", 504));

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
     * Whether a Google error answer says the model is not served: 404 {@code NOT_FOUND} naming a model
     * ({@code "models/gemini-1.0-pro is not found for API version v1beta, or is not supported for
     * generateContent"}; Vertex AI's {@code "Publisher Model `projects/…/models/…` was not found"}), not
     * a project, location or path.
     */
    public static boolean refusesModel(int status, String body) {
        if (status != 404) {
            return false;
        }
        ProviderErrorFields error = ProviderErrorFields.of(body);
        return "NOT_FOUND".equals(error.status()) && error.messageHas("model");
    }

    /**
     * An error body in Google's shape for the error {@code type}: {@code code} the HTTP status the
     * gateway answers it with ({@link GatewayError#statusOf}), {@code status} the Google status of
     * that code, and the type itself as the reason of an {@code ErrorInfo} detail (Google's place for
     * a machine-readable cause). A Google status given as {@code type} (an error relayed from a Gemini
     * provider) keeps its own code; another provider's error type met in a stream is read for what it
     * means (Anthropic's {@code overloaded_error} is Google's {@code UNAVAILABLE}).
     */
    public static JsonObject errorBody(String type, String message) {
        Integer googleCode = GOOGLE_CODES.get(type);
        int code = googleCode != null ? googleCode : codeOf(type);
        String status = googleCode != null ? type : statusOfCode(code);
        JsonObject detail = new JsonObject().put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", type)
                .put("domain", "agentfuse");
        return new JsonObject().put("error", new JsonObject().put("code", code).put("message", message)
                .put("status", status).put("details", new JsonArray().add(detail)));
    }

    /**
     * Adds a {@code google.rpc.RetryInfo} detail to an error {@code body} in Google's shape: its
     * {@code retryDelay} {@code wait} as a protobuf duration ({@code "42s"}, {@code "0.250s"}).
     */
    static void addRetryInfo(JsonObject body, Duration wait) {
        if (body.getValue("error") instanceof JsonObject error && error.getValue("details") instanceof JsonArray details) {
            long millis = Math.max(0, wait.toMillis());
            String delay = millis % 1000 == 0 ? millis / 1000 + "s" : String.format(Locale.ROOT, "%d.%03ds", millis / 1000, millis % 1000);
            details.add(new JsonObject().put("@type", "type.googleapis.com/google.rpc.RetryInfo").put("retryDelay", delay));
        }
    }

    /** The HTTP status of a gateway error type, or of a provider's error type met in a stream; 500 for an unknown one. */
    private static int codeOf(String type) {
        int gateway = GatewayError.statusOf(type);
        if (gateway > 0) {
            return gateway;
        }
        return switch (type) {
            case "overloaded_error", "server_overloaded" -> 503;
            // OpenAI's in-stream rate limits are typed by what ran out ("requests", "tokens"), as OpenAiDialect reads them.
            case "rate_limit_error", "rate_limit_exceeded", "requests", "tokens", "ThrottlingException" -> 429;
            case "authentication_error", "permission_error" -> 502; // the gateway's key, not the caller's
            case "timeout_error" -> 504;
            default -> 500;
        };
    }

    /** The Google status of HTTP {@code code} (google.rpc.Code's mapping). */
    static String statusOfCode(int code) {
        return switch (code) {
            case 400, 405, 411, 413, 414, 415, 431 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 408, 504 -> "DEADLINE_EXCEEDED";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 502, 503 -> "UNAVAILABLE";
            default -> "INTERNAL";
        };
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
