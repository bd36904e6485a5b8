package io.agentfuse.agent.conversation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An ordered, immutable list of {@link Message}s: what an agent sends to a model. Thread-safe;
 * two conversations are equal when their messages are, so "nothing changed" can be checked with
 * {@code equals} (or identity, where a component promises to return the same instance).
 *
 * <p>A <em>turn</em> starts at each {@linkplain Message#isPrompt() prompt} and runs up to the
 * next one; tool calls and their results always fall inside one turn.
 *
 * <pre>{@code
 * Conversation conversation = Conversation.of(
 *         Message.system("You are a careful coding agent."),
 *         Message.user("Run the tests."));
 * Conversation next = conversation.append(Message.assistant("All 42 tests pass."));
 * }</pre>
 *
 * @param messages the messages, oldest first (copied)
 */
public record Conversation(List<Message> messages) {

    /** @throws NullPointerException if {@code messages} or an element is null */
    public Conversation {
        messages = List.copyOf(messages);
    }

    /** A conversation of {@code messages}, oldest first. */
    public static Conversation of(Message... messages) {
        return new Conversation(List.of(messages));
    }

    /** A conversation without messages. */
    public static Conversation empty() {
        return new Conversation(List.of());
    }

    /** The number of messages. */
    public int size() {
        return messages.size();
    }

    /** Whether there are no messages. */
    public boolean isEmpty() {
        return messages.isEmpty();
    }

    /** The message at {@code index}, oldest first. */
    public Message get(int index) {
        return messages.get(index);
    }

    /** A new conversation with {@code message} added at the end. */
    public Conversation append(Message message) {
        Objects.requireNonNull(message, "message");
        List<Message> longer = new ArrayList<>(messages.size() + 1);
        longer.addAll(messages);
        longer.add(message);
        return new Conversation(longer);
    }

    /** Whether this conversation begins with every message of {@code prefix}, in order. */
    public boolean startsWith(Conversation prefix) {
        return prefix.size() <= size() && messages.subList(0, prefix.size()).equals(prefix.messages);
    }

    /** The messages after the first {@code count}. */
    public List<Message> after(int count) {
        return messages.subList(Math.min(count, size()), size());
    }
}
