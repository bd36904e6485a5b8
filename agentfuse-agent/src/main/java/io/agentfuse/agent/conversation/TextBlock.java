package io.agentfuse.agent.conversation;

import java.util.Objects;

/**
 * Plain text. Immutable.
 *
 * <pre>{@code
 * ContentBlock block = new TextBlock("Fix the failing test.");
 * }</pre>
 *
 * @param text the text; may be empty, never null
 */
public record TextBlock(String text) implements ContentBlock {

    /** @throws NullPointerException if {@code text} is null */
    public TextBlock {
        Objects.requireNonNull(text, "text");
    }
}
