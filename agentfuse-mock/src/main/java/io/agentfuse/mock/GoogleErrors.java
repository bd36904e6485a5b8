package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Google APIs' error bodies, as the Gemini API and Vertex AI send them:
 * {@code {"error": {"code": 429, "message": "...", "status": "RESOURCE_EXHAUSTED"}}}, the status
 * being the canonical gRPC code of the HTTP status. Stateless.
 */
final class GoogleErrors {

    private GoogleErrors() {
    }

    /** The canonical status of HTTP {@code status}. */
    static String statusOf(int status) {
        return switch (status) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 503 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
        };
    }

    /** The body of an error with HTTP {@code status} and canonical {@code googleStatus} ({@code null}: the usual one). */
    static JsonObject body(int status, String googleStatus) {
        String canonical = googleStatus != null ? googleStatus : statusOf(status);
        String message = switch (canonical) {
            case "RESOURCE_EXHAUSTED" -> "Resource has been exhausted (e.g. check quota).";
            case "UNAVAILABLE" -> "The model is overloaded. Please try again later.";
            case "INTERNAL" -> "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting";
            case "DEADLINE_EXCEEDED" -> "Deadline expired before operation could complete.";
            case "NOT_FOUND" -> "Requested entity was not found.";
            case "PERMISSION_DENIED" -> "The caller does not have permission";
            case "UNAUTHENTICATED" -> "Request had invalid authentication credentials.";
            default -> "Request contains an invalid argument.";
        };
        return body(status, canonical, message);
    }

    /** The body of an error with HTTP {@code status}, canonical {@code googleStatus} and {@code message}. */
    static JsonObject body(int status, String googleStatus, String message) {
        return new JsonObject().put("error", new JsonObject().put("code", status).put("message", message)
                .put("status", googleStatus));
    }

    /** An error body with an {@code ErrorInfo} detail giving {@code reason}, as Google sends for key problems. */
    static JsonObject withReason(JsonObject body, String reason, String service) {
        body.getJsonObject("error").put("details", new JsonArray().add(new JsonObject()
                .put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", reason)
                .put("domain", "googleapis.com").put("metadata", new JsonObject().put("service", service))));
        return body;
    }
}
