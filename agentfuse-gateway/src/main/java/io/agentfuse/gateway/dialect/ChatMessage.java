package io.agentfuse.gateway.dialect;

import java.util.List;
import java.util.Objects;

/**
 * One turn of the conversation in the neutral model. The system prompt is not a message (it is
 * {@link ChatRequest#system()}); tool results are {@link Role#USER} content, as in Anthropic's
 * API, and become OpenAI {@code tool} messages when written in that dialect.
 *
 * <p>Immutable as a value (equal by role and content), with one remembered measure: a parser hands
 * out the same message object for a message an agent resends every turn (see
 * {@code http.DerivedValues}), so what the context ladder measured of it last turn is found on the
 * object itself, without a lookup per text in a table of the counter's ({@link #measured}).
 *
 * <p>{@code new ChatMessage(Role.USER, List.of(new ContentPart.Text("Hi")))}
 */
public final class ChatMessage {

    /** Who speaks a message. */
    public enum Role { USER, ASSISTANT }

    /** A measure of this message and who took it; immutable, so it may be published racily. */
    private record Measure(Object measurer, long value) {
    }

    private final Role role;
    private final List<ContentPart> content;
    private Measure measure;

    /**
     * @param role    who speaks
     * @param content the pieces, in order
     */
    public ChatMessage(Role role, List<ContentPart> content) {
        this.role = Objects.requireNonNull(role, "role");
        this.content = List.copyOf(content);
    }

    /** Who speaks. */
    public Role role() {
        return role;
    }

    /** The pieces, in order. */
    public List<ContentPart> content() {
        return content;
    }

    /**
     * What {@code measurer} remembered of this message with {@link #remember}, or {@code -1}. One
     * measure is kept: a second measurer's replaces the first's, which then measures again.
     */
    public long measured(Object measurer) {
        Measure known = measure;
        return known != null && known.measurer == measurer ? known.value : -1;
    }

    /** Remembers {@code value} (not negative) as {@code measurer}'s measure of this message. */
    public void remember(Object measurer, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("a measure must not be negative, but was " + value);
        }
        measure = new Measure(Objects.requireNonNull(measurer, "measurer"), value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChatMessage message && role == message.role && content.equals(message.content);
    }

    @Override
    public int hashCode() {
        return 31 * role.hashCode() + content.hashCode();
    }

    @Override
    public String toString() {
        return "ChatMessage[role=" + role + ", content=" + content + "]";
    }
}
