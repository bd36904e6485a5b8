package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ContentPart;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The conversation as the APIs of Anthropic's shape want it (Messages, Bedrock's Converse):
 * {@code {"role": "user"|"assistant", "content": [blocks]}} turns that alternate, consecutive
 * messages of one role merged into one turn, and within a turn the tool results first (both APIs
 * refuse a tool result that does not open the turn after the tool call). Each part becomes a block
 * by the dialect's own {@code block} function; a part it writes as {@code null} is left out, and a
 * turn left empty is not written.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonArray messages = AlternatingTurns.write(request.messages(), BedrockRequestWriter::block);
 * }</pre>
 */
public final class AlternatingTurns {

    private AlternatingTurns() {
    }

    /** The turns of {@code messages}, each part written by {@code block}. */
    public static JsonArray write(List<ChatMessage> messages, Function<ContentPart, JsonObject> block) {
        JsonArray out = new JsonArray();
        ChatMessage.Role role = null;
        List<JsonObject> toolResults = new ArrayList<>();
        List<JsonObject> others = new ArrayList<>();
        for (ChatMessage message : messages) {
            if (message.role() != role) {
                flush(role, toolResults, others, out);
                role = message.role();
            }
            for (ContentPart part : message.content()) {
                JsonObject written = block.apply(part);
                if (written != null) {
                    (part instanceof ContentPart.ToolResult ? toolResults : others).add(written);
                }
            }
        }
        flush(role, toolResults, others, out);
        return out;
    }

    private static void flush(ChatMessage.Role role, List<JsonObject> toolResults, List<JsonObject> others, JsonArray out) {
        if (role == null || toolResults.isEmpty() && others.isEmpty()) {
            return;
        }
        JsonArray content = new JsonArray();
        toolResults.forEach(content::add);
        others.forEach(content::add);
        out.add(new JsonObject().put("role", role == ChatMessage.Role.USER ? "user" : "assistant").put("content", content));
        toolResults.clear();
        others.clear();
    }
}
