package io.agentfuse.agent.conversation;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One message of a {@link Conversation}: who wrote it, what it says, and whether compaction must
 * keep it. Immutable and thread-safe; equal when all fields are equal.
 *
 * <p>A <em>pinned</em> message is never summarised or snipped away, and neither is the tool call
 * or tool result it is paired with. {@code extras} carries provider fields this model does not
 * interpret (an OpenAI {@code name}, Anthropic {@code cache_control}, ...) as raw JSON text by
 * field name, so that a gateway can convert a request in and out without losing them.
 *
 * <pre>{@code
 * Message rules = Message.system("You are a careful coding agent.");
 * Message ask = Message.user("Run the tests.").pin();
 * Message call = Message.of(Role.ASSISTANT, new ToolUseBlock("t1", "Bash", "{\"command\":\"mvn test\"}"));
 * Message result = Message.of(Role.TOOL, new ToolResultBlock("t1", "BUILD SUCCESS", false));
 * }</pre>
 *
 * @param role    who wrote it
 * @param content its blocks, in order (copied; may be empty)
 * @param pinned  whether compaction must keep it
 * @param extras  uninterpreted provider fields, as JSON text by name (copied; may be empty)
 */
public record Message(Role role, List<ContentBlock> content, boolean pinned, Map<String, String> extras) {

    /** @throws NullPointerException if any argument or element is null */
    public Message {
        Objects.requireNonNull(role, "role");
        content = List.copyOf(content);
        extras = Map.copyOf(extras);
    }

    /** An unpinned message with {@code blocks} and no extras. */
    public static Message of(Role role, ContentBlock... blocks) {
        return new Message(role, List.of(blocks), false, Map.of());
    }

    /** An unpinned system message holding {@code text}. */
    public static Message system(String text) {
        return of(Role.SYSTEM, new TextBlock(text));
    }

    /** An unpinned user message holding {@code text}. */
    public static Message user(String text) {
        return of(Role.USER, new TextBlock(text));
    }

    /** An unpinned assistant message holding {@code text}. */
    public static Message assistant(String text) {
        return of(Role.ASSISTANT, new TextBlock(text));
    }

    /** This message, pinned. */
    public Message pin() {
        return pinned ? this : new Message(role, content, true, extras);
    }

    /** The text of every {@link TextBlock}, joined by newlines. */
    public String text() {
        return content.stream()
                .filter(TextBlock.class::isInstance)
                .map(block -> ((TextBlock) block).text())
                .collect(Collectors.joining("\n"));
    }

    /** The ids of the tool calls this message makes, in order. */
    public List<String> toolUseIds() {
        return content.stream()
                .filter(ToolUseBlock.class::isInstance)
                .map(block -> ((ToolUseBlock) block).id())
                .toList();
    }

    /** The ids of the tool calls this message answers, in order. */
    public List<String> toolResultIds() {
        return content.stream()
                .filter(ToolResultBlock.class::isInstance)
                .map(block -> ((ToolResultBlock) block).toolUseId())
                .toList();
    }

    /**
     * Whether this is a person's prompt: a user message with something other than tool results.
     * Each prompt starts a new turn.
     */
    public boolean isPrompt() {
        return role == Role.USER && content.stream().anyMatch(block -> !(block instanceof ToolResultBlock));
    }
}
