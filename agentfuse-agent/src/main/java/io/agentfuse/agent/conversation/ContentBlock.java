package io.agentfuse.agent.conversation;

/**
 * One piece of a {@link Message}'s content.
 *
 * <p>The set is closed on purpose: compaction must know which blocks tie messages together
 * ({@link ToolUseBlock} and the {@link ToolResultBlock}s answering it). Anything else a provider
 * sends (images, documents, thinking) travels untouched as a {@link RawBlock}.
 *
 * <pre>{@code
 * ContentBlock call = new ToolUseBlock("toolu_1", "Bash", "{\"command\":\"ls\"}");
 * ContentBlock answer = new ToolResultBlock("toolu_1", "README.md", false);
 * }</pre>
 */
public sealed interface ContentBlock permits TextBlock, ToolUseBlock, ToolResultBlock, RawBlock {
}
