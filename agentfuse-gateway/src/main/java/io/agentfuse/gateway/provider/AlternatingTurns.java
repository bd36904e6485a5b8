package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.Dialect;
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
 * turn left empty is not written. A message read from this very format (its
 * {@linkplain ChatMessage#originIn origin} in {@code wire}) is written as it came: alone in its turn,
 * the caller's message itself; merged, its blocks.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonArray messages = AlternatingTurns.write(request.messages(), null, part -> BedrockRequestWriter.block(part, media));
 * }</pre>
 */
public final class AlternatingTurns {

    private AlternatingTurns() {
    }

    /**
     * The turns of {@code messages}, each part written by {@code block}, or taken from the message's
     * origin when it was read from {@code wire} ({@code null}: a format no caller speaks).
     */
    public static JsonArray write(List<ChatMessage> messages, Dialect wire, Function<ContentPart, JsonObject> block) {
        JsonArray out = new JsonArray();
        List<ChatMessage> turn = new ArrayList<>();
        for (ChatMessage message : messages) {
            if (!turn.isEmpty() && message.role() != turn.get(0).role()) {
                flush(turn, wire, block, out);
            }
            turn.add(message);
        }
        flush(turn, wire, block, out);
        return out;
    }

    private static void flush(List<ChatMessage> turn, Dialect wire, Function<ContentPart, JsonObject> block, JsonArray out) {
        if (turn.isEmpty()) {
            return;
        }
        List<JsonObject> origin = turn.get(0).originIn(wire);
        if (turn.size() == 1 && origin.size() == 1) {
            out.add(origin.get(0));
            turn.clear();
            return;
        }
        List<JsonObject> toolResults = new ArrayList<>();
        List<JsonObject> others = new ArrayList<>();
        for (ChatMessage message : turn) {
            List<JsonObject> sent = message.originIn(wire);
            if (sent.size() == 1) {
                for (JsonObject written : blocks(sent.get(0))) {
                    ("tool_result".equals(written.getValue("type")) ? toolResults : others).add(written);
                }
                continue;
            }
            for (ContentPart part : message.content()) {
                JsonObject written = block.apply(part);
                if (written != null) {
                    (part instanceof ContentPart.ToolResult ? toolResults : others).add(written);
                }
            }
        }
        ChatMessage.Role role = turn.get(0).role();
        turn.clear();
        if (toolResults.isEmpty() && others.isEmpty()) {
            return;
        }
        JsonArray content = new JsonArray();
        toolResults.forEach(content::add);
        others.forEach(content::add);
        out.add(new JsonObject().put("role", role == ChatMessage.Role.USER ? "user" : "assistant").put("content", content));
    }

    /** The blocks of a message of this format as the caller sent it: its content's, a string as a text block. */
    private static List<JsonObject> blocks(JsonObject message) {
        Object content = message.getValue("content");
        if (content instanceof String text) {
            return text.isEmpty() ? List.of() : List.of(new JsonObject().put("type", "text").put("text", text));
        }
        List<JsonObject> blocks = new ArrayList<>();
        if (content instanceof JsonArray array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.getValue(i) instanceof JsonObject written) {
                    blocks.add(written);
                }
            }
        }
        return blocks;
    }
}
