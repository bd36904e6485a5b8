package io.agentfuse.mock;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What the Messages API refuses of a request with extended thinking on a fixed budget
 * ({@code thinking: {type: enabled}}): a final assistant message that calls a tool without starting
 * with the thinking block Claude wrote for it, with Anthropic's own 400 message (as Anthropic, Vertex
 * AI and Bedrock answer it to agents that lost a turn's thinking, or whose turn another model
 * answered). Adaptive thinking makes thinking optional and is not refused. The mock keeps its own
 * reading of the rule, not the gateway's, so that it catches a gateway that forwards such a request.
 * Stateless.
 */
final class AnthropicThinkingCheck {

    private AnthropicThinkingCheck() {
    }

    /** Anthropic's message for {@code body} when the API refuses it so, or {@code null}. */
    static String problem(JsonObject body, JsonArray messages) {
        if (!(body.getValue("thinking") instanceof JsonObject thinking) || !"enabled".equals(thinking.getValue("type"))) {
            return null;
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.getValue(i) instanceof JsonObject message && "assistant".equals(message.getValue("role"))) {
                return problem(i, message.getValue("content"));
            }
        }
        return null;
    }

    private static String problem(int index, Object content) {
        if (!(content instanceof JsonArray blocks) || blocks.isEmpty()
                || blocks.stream().noneMatch(block -> block instanceof JsonObject b && "tool_use".equals(b.getValue("type")))) {
            return null;
        }
        Object first = blocks.getValue(0) instanceof JsonObject block ? block.getValue("type") : null;
        if ("thinking".equals(first) || "redacted_thinking".equals(first)) {
            return null;
        }
        return "messages." + index + ".content.0.type: Expected `thinking` or `redacted_thinking`, but found `" + first
                + "`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding"
                + " the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from"
                + " previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at"
                + " https://docs.claude.com/en/docs/build-with-claude/extended-thinking";
    }
}
