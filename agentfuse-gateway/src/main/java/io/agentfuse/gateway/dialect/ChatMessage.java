package io.agentfuse.gateway.dialect;

import java.util.List;
import java.util.Objects;

/**
 * One turn of the conversation in the neutral model. The system prompt is not a message (it is
 * {@link ChatRequest#system()}); tool results are {@link Role#USER} content, as in Anthropic's
 * API, and become OpenAI {@code tool} messages when written in that dialect.
 *
 * <p>Immutable. {@code new ChatMessage(Role.USER, List.of(new ContentPart.Text("Hi")))}
 *
 * @param role    who speaks
 * @param content the pieces, in order
 */
public record ChatMessage(Role role, List<ContentPart> content) {

    /** Who speaks a message. */
    public enum Role { USER, ASSISTANT }

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = List.copyOf(content);
    }
}
