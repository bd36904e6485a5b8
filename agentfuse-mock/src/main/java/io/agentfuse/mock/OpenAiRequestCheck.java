package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What OpenAI's Chat Completions refuses in the order of a conversation's messages, with its own
 * messages: a {@code tool} message that answers no call of the assistant message right before its
 * run of tool messages, an assistant message with {@code tool_calls} that is not followed by a tool
 * message for every call, and an image part in a message that is not the user's (a tool message
 * holds text only). Stateless.
 */
final class OpenAiRequestCheck {

    private OpenAiRequestCheck() {
    }

    /** OpenAI's message for what is wrong with {@code body}, or {@code null} when it is accepted. */
    static String problem(JsonObject body) {
        if (!(body.getValue("messages") instanceof JsonArray messages)) {
            return null;
        }
        Set<String> unanswered = new LinkedHashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            if (!(messages.getValue(i) instanceof JsonObject message)) {
                continue;
            }
            String role = String.valueOf(message.getValue("role"));
            if ("tool".equals(role)) {
                if (!unanswered.remove(String.valueOf(message.getValue("tool_call_id")))) {
                    return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
                }
            } else if (!unanswered.isEmpty()) {
                return unansweredCalls(unanswered);
            }
            if (!"user".equals(role) && holdsImage(message)) {
                return "Invalid 'messages[" + i + "]'. Image URLs are only allowed for messages with role 'user', but this "
                        + "message with role '" + role + "' contains an image URL.";
            }
            if ("assistant".equals(role) && message.getValue("tool_calls") instanceof JsonArray calls) {
                unanswered.clear();
                for (int c = 0; c < calls.size(); c++) {
                    if (calls.getValue(c) instanceof JsonObject call) {
                        unanswered.add(String.valueOf(call.getValue("id")));
                    }
                }
            }
        }
        return unanswered.isEmpty() ? null : unansweredCalls(unanswered);
    }

    private static String unansweredCalls(Set<String> unanswered) {
        return "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                + "'tool_call_id'. The following tool_call_ids did not have response messages: " + String.join(", ", unanswered);
    }

    private static boolean holdsImage(JsonObject message) {
        if (!(message.getValue("content") instanceof JsonArray parts)) {
            return false;
        }
        for (int i = 0; i < parts.size(); i++) {
            if (parts.getValue(i) instanceof JsonObject part && "image_url".equals(part.getValue("type"))) {
                return true;
            }
        }
        return false;
    }
}
