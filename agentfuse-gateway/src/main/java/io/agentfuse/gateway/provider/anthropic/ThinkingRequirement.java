package io.agentfuse.gateway.provider.anthropic;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The Messages API's rule for extended thinking with a fixed budget ({@code thinking: {type: enabled}}):
 * the final assistant message of a tool-use turn must start with the thinking block Claude wrote
 * for it, signed ({@code thinking} or {@code redacted_thinking}), else the request is refused (400
 * {@code Expected `thinking` or `redacted_thinking`, but found `tool_use`}). A turn another model
 * answered — a fallback across dialects, which has no Anthropic thinking to give back — has none, and
 * no signature can be made up for it: the agent's next request, back on Claude, would be refused,
 * and so would every retry of it, until the turn ends.
 *
 * <p>Such a request goes without {@code thinking} (and without the {@code context_management} edits
 * that clear thinking, which the API takes only with thinking on), as LiteLLM's {@code modify_params}
 * does: Claude answers that step without extended thinking, and thinks again from the next turn.
 * Adaptive thinking ({@code type: adaptive}) makes thinking optional, so nothing is required of a
 * turn there; a turn that starts with its thinking, and a request without a tool-use turn, go as they
 * came. Stateless.
 */
final class ThinkingRequirement {

    private ThinkingRequirement() {
    }

    /**
     * {@code body} (a shallow copy of the caller's, whose top-level fields may be replaced) without
     * {@code thinking} when its final assistant message is a tool-use turn that does not start with
     * thinking; {@code body} as it is otherwise.
     */
    static JsonObject fit(JsonObject body) {
        if (!(body.getValue("thinking") instanceof JsonObject thinking) || !"enabled".equals(thinking.getValue("type"))
                || !(body.getValue("messages") instanceof JsonArray messages) || !unthoughtToolTurn(messages)) {
            return body;
        }
        body.remove("thinking");
        if (body.getValue("context_management") instanceof JsonObject management
                && management.getValue("edits") instanceof JsonArray edits) {
            JsonArray kept = new JsonArray();
            for (Object edit : edits) {
                if (!(edit instanceof JsonObject named && named.getValue("type") instanceof String type
                        && type.startsWith("clear_thinking"))) {
                    kept.add(edit);
                }
            }
            if (kept.isEmpty() && management.size() == 1) {
                body.remove("context_management");
            } else if (kept.isEmpty()) {
                JsonObject rest = management.copy(); // no empty list of edits: the API's reading of one is not documented
                rest.remove("edits");
                body.put("context_management", rest);
            } else if (kept.size() != edits.size()) {
                body.put("context_management", management.copy().put("edits", kept));
            }
        }
        return body;
    }

    /** Whether the final assistant message calls a tool without starting with a thinking block. */
    private static boolean unthoughtToolTurn(JsonArray messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.getValue(i) instanceof JsonObject message && "assistant".equals(message.getValue("role"))) {
                if (!(message.getValue("content") instanceof JsonArray blocks) || blocks.isEmpty()) {
                    return false;
                }
                boolean callsATool = false;
                for (Object block : blocks) {
                    callsATool |= block instanceof JsonObject named && "tool_use".equals(named.getValue("type"));
                }
                Object first = blocks.getValue(0) instanceof JsonObject opening ? opening.getValue("type") : null;
                return callsATool && !"thinking".equals(first) && !"redacted_thinking".equals(first);
            }
        }
        return false;
    }
}
