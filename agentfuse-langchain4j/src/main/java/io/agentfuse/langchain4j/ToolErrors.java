package io.agentfuse.langchain4j;

import io.agentfuse.core.breaker.Rejection;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the model is told instead of a tool's answer when the tool was not run, as JSON text, so
 * that the agent can go on without it instead of failing: for an open breaker the seed's
 * structured error {@code {"error": "CIRCUIT_OPEN", "message": ..., "retryAfter": <s or null>}},
 * for a refused permission {@code {"error": "PERMISSION_DENIED", "message": ...}}. The one place
 * their wording is decided.
 */
final class ToolErrors {

    /** The error code of a tool call the user (or the permission breaker) refused. */
    static final String PERMISSION_DENIED = "PERMISSION_DENIED";

    private ToolErrors() {
    }

    /** The structured error for a call of {@code tool} that {@code rejection} refused. */
    static String circuitOpen(String tool, Rejection rejection) {
        Map<String, Object> fields = rejection.toMap();
        fields.put("message", tool + " is unavailable: " + rejection.message());
        return json(fields);
    }

    /** The structured error for a call of {@code tool} that was not permitted, for {@code reason}. */
    static String permissionDenied(String tool, String reason) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("error", PERMISSION_DENIED);
        fields.put("message", tool + " was not run: " + reason);
        return json(fields);
    }

    private static String json(Map<String, Object> fields) {
        StringBuilder json = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            if (!first) {
                json.append(", ");
            }
            first = false;
            quote(json, field.getKey()).append(": ");
            Object value = field.getValue();
            if (value == null || value instanceof Number) {
                json.append(value);
            } else {
                quote(json, value.toString());
            }
        }
        return json.append('}').toString();
    }

    private static StringBuilder quote(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"');
    }
}
