package io.agentfuse.agent.conversation;

import java.util.Objects;

/**
 * A tool's answer to the {@link ToolUseBlock} whose id it repeats. Immutable.
 *
 * <p>Structured results (a list of content parts) are carried as their JSON text in
 * {@code content}; this module only needs to measure and move them.
 *
 * <pre>{@code
 * ContentBlock answer = new ToolResultBlock("toolu_1", "permission denied", true);
 * }</pre>
 *
 * @param toolUseId the id of the call this answers
 * @param content   the result as text
 * @param isError   whether the tool reported a failure
 */
public record ToolResultBlock(String toolUseId, String content, boolean isError) implements ContentBlock {

    /** @throws NullPointerException if {@code toolUseId} or {@code content} is null */
    public ToolResultBlock {
        Objects.requireNonNull(toolUseId, "toolUseId");
        Objects.requireNonNull(content, "content");
    }
}
