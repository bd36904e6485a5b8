package io.agentfuse.gateway.context;

import io.agentfuse.agent.conversation.ContentBlock;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.conversation.Role;
import io.agentfuse.agent.conversation.TextBlock;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.gateway.dialect.ChatRequest;
import io.agentfuse.gateway.dialect.ToolDefinition;
import io.agentfuse.gateway.http.DerivedValues;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * The tools a request offers, as the context ladder counts them: every provider reads their
 * definitions as part of the prompt (Anthropic's {@code input_tokens} and {@code count_tokens} count
 * them), and an agent's are large — Claude Code sends some twenty tools with long descriptions, tens of
 * thousands of tokens on every turn. Left out, a conversation the ladder let through at 94 % of a
 * window was refused by the provider as too long. They cannot be compacted: in the conversation the
 * ladder compacts they are one pinned system message, never summarised or snipped, and never written
 * back into the request (the request keeps its tools as sent).
 *
 * <p>A tool is counted by its name, its description and its schema's JSON text. The schema of a
 * request body the memo decoded is the same object on every turn, and its JSON text is kept on it
 * ({@link DerivedValues}), so that a resent request's tools are bounded in a few steps each, never
 * encoded again. Stateless and thread-safe.
 */
final class ToolsMessage {

    /** The extra that marks the message of a request's tools in a conversation. */
    private static final String MARK = "agentfuse_tools";
    private static final Map<String, String> MARKED = Map.of(MARK, "true");
    private static final DerivedValues<Schema> SCHEMAS = new DerivedValues<>();

    private ToolsMessage() {
    }

    /** The pinned system message of {@code request}'s tools, or {@code null} when it offers none. */
    static Message of(ChatRequest request) {
        if (request.tools().isEmpty()) {
            return null;
        }
        List<ContentBlock> blocks = new ArrayList<>(request.tools().size() * 3);
        for (ToolDefinition tool : request.tools()) {
            blocks.add(new TextBlock(tool.name()));
            if (tool.description() != null && !tool.description().isEmpty()) {
                blocks.add(new TextBlock(tool.description()));
            }
            blocks.add(new TextBlock(schemaText(tool)));
        }
        return new Message(Role.SYSTEM, blocks, true, MARKED);
    }

    /** Whether {@code message} is the message of a request's tools, which goes back into no request. */
    static boolean is(Message message) {
        return message.role() == Role.SYSTEM && message.extras().containsKey(MARK);
    }

    /**
     * At least what a counter counts for {@link #of}'s message, from the bounds {@code textBound} gives
     * its texts: 0 without tools, -1 as soon as a text answers -1.
     */
    static long bound(ChatRequest request, ToIntFunction<String> textBound) {
        if (request.tools().isEmpty()) {
            return 0;
        }
        long tokens = TokenCounter.TOKENS_PER_MESSAGE;
        for (ToolDefinition tool : request.tools()) {
            int name = textBound.applyAsInt(tool.name());
            int description = tool.description() == null ? 0 : textBound.applyAsInt(tool.description());
            int schema = textBound.applyAsInt(schemaText(tool));
            if (name < 0 || description < 0 || schema < 0) {
                return -1;
            }
            tokens += (long) name + description + schema;
        }
        return tokens;
    }

    /** The chars of the texts {@link #of} holds: a bound on tokens without a counter. */
    static long chars(ChatRequest request) {
        long chars = 0;
        for (ToolDefinition tool : request.tools()) {
            chars += tool.name().length() + (tool.description() == null ? 0 : tool.description().length())
                    + schemaText(tool).length();
        }
        return chars;
    }

    /** The JSON text of {@code tool}'s schema, kept on a decoded schema so that it is encoded once. */
    static String schemaText(ToolDefinition tool) {
        return schema(tool).text();
    }

    /** What is kept on {@code tool}'s schema: its JSON text, and the key of a tool it came with, if one was taken. */
    static Schema schema(ToolDefinition tool) {
        JsonObject schema = tool.parametersAsParsed();
        Schema known = SCHEMAS.get(schema);
        if (known != null) {
            return known;
        }
        Schema encoded = new Schema(schema.encode(), null, null, 0);
        SCHEMAS.put(schema, encoded);
        return encoded;
    }

    /** Keeps {@code key} ({@link PromptKeys}) of {@code tool} on its schema, beside the text, for the tool's next request. */
    static void rememberKey(ToolDefinition tool, Schema schema, long key) {
        SCHEMAS.put(tool.parametersAsParsed(), new Schema(schema.text(), tool.name(), tool.description(), key));
    }

    /**
     * A decoded schema's JSON text, and the key {@link PromptKeys} took of the tool it came with (its
     * name and description; {@code 0}: none yet). One record, as a decoded object keeps one derivation.
     */
    record Schema(String text, String name, String description, long key) {

        /** The key kept for {@code tool}, or {@code 0} when none was taken of a tool of its name and description. */
        long keyOf(ToolDefinition tool) {
            return key != 0 && name.equals(tool.name()) && Objects.equals(description, tool.description()) ? key : 0;
        }
    }
}
