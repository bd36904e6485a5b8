package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * Where a message of a request lies in the caller's own body, as a refusal names it: the caller
 * reads {@code messages[2].content} (Chat Completions, Messages), {@code input[3].content}
 * (Responses), {@code contents[1].parts} (Gemini) — the index in its body, not in the neutral
 * conversation, which holds no system messages. The message is found by its origin, the very
 * object the parser read it from; a message without one is named by the Responses shorthand
 * {@code input} (a string, the one user message) or else by its place in the conversation.
 * Stateless.
 *
 * <p>{@code String field = CallerField.ofMessage(request, 2); // "messages[2].content"}
 */
public final class CallerField {

    private CallerField() {
    }

    /** The caller's field holding the content of {@code request.messages().get(index)}. */
    public static String ofMessage(ChatRequest request, int index) {
        JsonObject body = request.received(); // shared, not copied: its elements are the origins
        List<JsonObject> origin = request.messages().get(index).originIn(request.dialect());
        if (body != null && !origin.isEmpty()) {
            String found = find(body, origin.get(0));
            if (found != null) {
                return found;
            }
        }
        if (body != null && body.getValue("input") instanceof String) {
            return "input";
        }
        return "message " + (index + 1) + " of the conversation";
    }

    private static String find(JsonObject body, JsonObject element) {
        for (Map.Entry<String, Object> field : body) {
            if (!(field.getValue() instanceof JsonArray array)) {
                continue;
            }
            for (int i = 0; i < array.size(); i++) {
                if (array.getValue(i) == element) { // the same object: a repeated message names its own place
                    String at = field.getKey() + "[" + i + "]";
                    return element.containsKey("content") ? at + ".content" : element.containsKey("parts") ? at + ".parts" : at;
                }
            }
        }
        return null;
    }
}
