package io.agentfuse.agent.permission;

import java.util.Objects;

/**
 * A tool call an agent wants to make, as the {@link PermissionBreaker} sees it. Immutable.
 *
 * <pre>{@code
 * ToolCall call = new ToolCall("Bash", "git push --force");
 * ToolCall read = ToolCall.of("Read");
 * }</pre>
 *
 * @param name  the tool's name
 * @param input the arguments as text (a JSON object, a command line, ...); may be empty
 */
public record ToolCall(String name, String input) {

    /** @throws IllegalArgumentException if {@code name} is blank */
    public ToolCall {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank, but was " + name);
        }
        Objects.requireNonNull(input, "input");
    }

    /** A call of {@code name} without arguments. */
    public static ToolCall of(String name) {
        return new ToolCall(name, "");
    }
}
