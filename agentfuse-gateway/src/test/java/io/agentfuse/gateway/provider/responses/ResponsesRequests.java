package io.agentfuse.gateway.provider.responses;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Responses API request bodies, and the pieces of their input, as the parser's tests write them. */
final class ResponsesRequests {

    private ResponsesRequests() {
    }

    static JsonObject request(Object input) {
        return new JsonObject().put("model", "gpt-4.1-mini").put("input", input);
    }

    static JsonObject message(String role, Object content) {
        return new JsonObject().put("type", "message").put("role", role).put("content", content);
    }

    static JsonObject part(String type, String field, String value) {
        return new JsonObject().put("type", type).put(field, value);
    }

    static JsonObject weatherTool() {
        return new JsonObject().put("type", "function").put("name", "get_weather").put("description", "Weather of a city")
                .put("parameters", new JsonObject().put("type", "object").put("properties",
                        new JsonObject().put("city", new JsonObject().put("type", "string"))))
                .put("strict", true);
    }

    /** A tool-use conversation as an agent sends it on its second turn. */
    static JsonArray toolConversation() {
        return new JsonArray()
                .add(message("developer", "Be brief."))
                .add(new JsonObject().put("role", "user").put("content", "Weather in Paris?"))
                .add(new JsonObject().put("type", "reasoning").put("id", "rs_1").put("summary", new JsonArray())
                        .put("encrypted_content", "opaque"))
                .add(message("assistant", new JsonArray().add(part("output_text", "text", "Let me check."))))
                .add(new JsonObject().put("type", "function_call").put("id", "fc_1").put("call_id", "call_1")
                        .put("name", "get_weather").put("arguments", "{\"city\":\"Paris\"}"))
                .add(new JsonObject().put("type", "function_call_output").put("call_id", "call_1").put("output", "18°C"));
    }
}
