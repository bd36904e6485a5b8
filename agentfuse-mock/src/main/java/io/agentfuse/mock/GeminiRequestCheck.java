package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * What the Gemini API and Vertex AI refuse in a {@code generateContent} or {@code countTokens}
 * body: like every Google API they reject unknown fields ({@code Invalid JSON payload received.
 * Unknown name "x"}) and a request without {@code contents}. Stateless.
 */
final class GeminiRequestCheck {

    private static final Set<String> GENERATE_FIELDS = Set.of("contents", "model", "tools", "toolConfig", "tool_config",
            "safetySettings", "safety_settings", "systemInstruction", "system_instruction", "generationConfig",
            "generation_config", "cachedContent", "cached_content", "labels");
    private static final Set<String> COUNT_FIELDS = Set.of("contents", "model", "generateContentRequest",
            "generate_content_request", "tools", "systemInstruction", "system_instruction", "generationConfig",
            "generation_config", "instances");

    private GeminiRequestCheck() {
    }

    /** Google's message for what is wrong with {@code body}, or {@code null} when it is accepted. */
    static String problem(JsonObject body, boolean countTokens) {
        Set<String> known = countTokens ? COUNT_FIELDS : GENERATE_FIELDS;
        for (String field : body.fieldNames()) {
            if (!known.contains(field)) {
                return "Invalid JSON payload received. Unknown name \"" + field + "\": Cannot find field.";
            }
        }
        if (countTokens && (body.containsKey("generateContentRequest") || body.containsKey("generate_content_request"))) {
            return null;
        }
        if (!(body.getValue("contents") instanceof JsonArray contents) || contents.isEmpty()) {
            return countTokens && body.containsKey("instances") ? null : "* GenerateContentRequest.contents: contents is not specified\n";
        }
        for (int i = 0; i < contents.size(); i++) {
            if (!(contents.getValue(i) instanceof JsonObject content) || !(content.getValue("parts") instanceof JsonArray parts)
                    || parts.isEmpty()) {
                return "* GenerateContentRequest.contents[" + i + "].parts: contents.parts must not be empty.\n";
            }
            Object role = content.getValue("role");
            if (role != null && !"user".equals(role) && !"model".equals(role) && !"function".equals(role)) {
                return "Please use a valid role: user, model.";
            }
        }
        return null;
    }
}
