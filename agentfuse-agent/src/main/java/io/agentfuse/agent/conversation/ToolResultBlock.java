package io.agentfuse.agent.conversation;

import java.util.List;
import java.util.Objects;

/**
 * A tool's answer to the {@link ToolUseBlock} whose id it repeats. Immutable.
 *
 * <p>The answer's text is {@code content}; what a tool returns beside text (a screenshot, the image
 * a file read returned, a document) travels as {@code attachments}, raw blocks this module measures
 * ({@link RawBlock}: an image by its size in pixels) and moves but does not interpret. An integration
 * without such blocks may carry a structured result as its JSON text in {@code content}.
 *
 * <pre>{@code
 * ContentBlock answer = new ToolResultBlock("toolu_1", "permission denied", true);
 * ContentBlock screenshot = new ToolResultBlock("toolu_2", "", false,
 *         List.of(new RawBlock(RawBlock.IMAGE, "{\"url\":\"data:image/png;base64,iVBOR...\"}")));
 * }</pre>
 *
 * @param toolUseId   the id of the call this answers
 * @param content     the result as text
 * @param isError     whether the tool reported a failure
 * @param attachments the blocks the result holds beside its text, in order; empty for most results
 */
public record ToolResultBlock(String toolUseId, String content, boolean isError, List<RawBlock> attachments)
        implements ContentBlock {

    /** @throws NullPointerException if any argument or attachment is null */
    public ToolResultBlock {
        Objects.requireNonNull(toolUseId, "toolUseId");
        Objects.requireNonNull(content, "content");
        attachments = List.copyOf(attachments);
    }

    /** A result of text alone. */
    public ToolResultBlock(String toolUseId, String content, boolean isError) {
        this(toolUseId, content, isError, List.of());
    }
}
