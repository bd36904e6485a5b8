package io.agentfuse.agent.conversation;

import java.util.Objects;

/**
 * The model asking for a tool call. Immutable.
 *
 * <p>The input is kept as the JSON text the provider sent, so that it round-trips byte for byte.
 *
 * <pre>{@code
 * ContentBlock call = new ToolUseBlock("toolu_1", "Bash", "{\"command\":\"git status\"}");
 * }</pre>
 *
 * @param id        the call's id, which the matching {@link ToolResultBlock#toolUseId()} repeats
 * @param name      the tool's name
 * @param inputJson the arguments as a JSON text ({@code "{}"} when there are none)
 */
public record ToolUseBlock(String id, String name, String inputJson) implements ContentBlock {

    /** @throws NullPointerException if any argument is null */
    public ToolUseBlock {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inputJson, "inputJson");
    }
}
