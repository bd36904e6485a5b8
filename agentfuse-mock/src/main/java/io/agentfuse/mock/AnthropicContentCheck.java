package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What the Messages API refuses for empty content, in its words: no messages at all, a message whose
 * content is an empty string or an empty list (but for a final assistant turn, an empty prefill), and a
 * text block whose text is empty. A gateway that dropped such a turn, or sent one, is caught by a test
 * against the mock as it would be by Anthropic. Stateless.
 */
final class AnthropicContentCheck {

    private AnthropicContentCheck() {
    }

    /** Anthropic's message for the empty content of {@code messages}, or {@code null}. */
    static String problem(JsonArray messages) {
        if (messages.isEmpty()) {
            return "messages: at least one message is required";
        }
        for (int i = 0; i < messages.size(); i++) {
            if (!(messages.getValue(i) instanceof JsonObject message)) {
                continue;
            }
            Object content = message.getValue("content");
            boolean finalPrefill = i == messages.size() - 1 && "assistant".equals(message.getValue("role"));
            if (!finalPrefill && ("".equals(content) || content instanceof JsonArray blocks && blocks.isEmpty())) {
                return "messages." + i + ": all messages must have non-empty content except for the optional final assistant message";
            }
            if (content instanceof JsonArray blocks) {
                for (Object block : blocks) {
                    if (block instanceof JsonObject text && "text".equals(text.getValue("type")) && "".equals(text.getValue("text"))) {
                        return "messages: text content blocks must be non-empty";
                    }
                }
            }
        }
        return null;
    }
}
