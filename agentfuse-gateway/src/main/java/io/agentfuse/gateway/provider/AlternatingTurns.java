package io.agentfuse.gateway.provider;

import io.agentfuse.gateway.dialect.ChatMessage;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ContentPart;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.dialect.UntranslatableException;
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
 * by the dialect's own {@code block} function; a part it writes as {@code null} (an empty text) is
 * left out. A turn left empty is refused, as both APIs refuse it (an empty text block, a message of no
 * content, no message at all): leaving it out changed what the model is asked (a conversation that ends
 * on the assistant's turn is a prefill the model continues), so the request is untranslatable there,
 * naming the caller's field ({@code messages[2].content}). Only a final assistant turn left empty is
 * not written: an empty prefill asks for nothing, and without it the model answers the same. A message
 * read from this very format (its
 * {@linkplain ChatMessage#originIn origin} in {@code wire}) is written as it came: alone in its turn,
 * the caller's message itself; merged, its blocks.
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * JsonArray messages = AlternatingTurns.write(request, null, "Bedrock", part -> BedrockRequestWriter.block(part, media));
 * }</pre>
 */
public final class AlternatingTurns {

    private AlternatingTurns() {
    }

    /**
     * The turns of {@code request}'s messages, each part written by {@code block}, or taken from the
     * message's origin when it was read from {@code wire} ({@code null}: a format no caller speaks).
     *
     * @param provider the provider's name for the API, as a refusal names it ({@code Anthropic})
     * @throws UntranslatableException when a turn but a final assistant one is left empty, or no turn is left
     */
    public static JsonArray write(ChatRequest request, Dialect wire, String provider, Function<ContentPart, JsonObject> block) {
        List<ChatMessage> messages = request.messages();
        JsonArray out = new JsonArray();
        List<ChatMessage> turn = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage message = messages.get(i);
            if (!turn.isEmpty() && message.role() != turn.get(0).role() && !flush(turn, wire, block, out)) {
                throw emptyTurn(request, i - 1, provider);
            }
            turn.add(message);
        }
        boolean lastIsUsers = !turn.isEmpty() && turn.get(0).role() == ChatMessage.Role.USER;
        if (!flush(turn, wire, block, out) && lastIsUsers) {
            throw emptyTurn(request, messages.size() - 1, provider);
        }
        if (out.isEmpty()) {
            throw new UntranslatableException("no message with content (" + provider + " takes at least one)");
        }
        return out;
    }

    /** Why a turn whose last message is {@code lastOfTurn} cannot be sent: it has no content. */
    private static UntranslatableException emptyTurn(ChatRequest request, int lastOfTurn, String provider) {
        return new UntranslatableException(CallerField.ofMessage(request, lastOfTurn) + " has no content (" + provider
                + " refuses an empty message or text, but for a final assistant message)");
    }

    /** Writes {@code turn} to {@code out} and empties it; whether it had any content to write (an empty list has). */
    private static boolean flush(List<ChatMessage> turn, Dialect wire, Function<ContentPart, JsonObject> block, JsonArray out) {
        if (turn.isEmpty()) {
            return true;
        }
        List<JsonObject> origin = turn.get(0).originIn(wire);
        if (turn.size() == 1 && origin.size() == 1) {
            out.add(origin.get(0));
            turn.clear();
            return true;
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
            return false;
        }
        JsonArray content = new JsonArray();
        toolResults.forEach(content::add);
        others.forEach(content::add);
        out.add(new JsonObject().put("role", role == ChatMessage.Role.USER ? "user" : "assistant").put("content", content));
        return true;
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
