package io.agentfuse.langchain4j;

import io.agentfuse.core.breaker.Rejection;

import java.util.Map;

/**
 * What the model is told instead of a tool's answer when the tool's breaker is open: the seed's
 * structured error {@code {"error": "CIRCUIT_OPEN", "message": ..., "retryAfter": <s or null>}},
 * as JSON text, so that the agent can go on without the tool (or try again later) instead of
 * failing. The one place its wording is decided.
 */
final class ToolRejections {

    private ToolRejections() {
    }

    /** The structured error for a call of {@code tool} that {@code rejection} refused. */
    static String text(String tool, Rejection rejection) {
        StringBuilder json = new StringBuilder("{");
        Map<String, Object> fields = rejection.toMap();
        fields.put("message", tool + " is unavailable: " + rejection.message());
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
