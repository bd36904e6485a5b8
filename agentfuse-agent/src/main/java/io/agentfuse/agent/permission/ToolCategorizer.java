package io.agentfuse.agent.permission;

/**
 * Sorts tool calls into the categories the {@link PermissionBreaker} counts denials by (with
 * {@link PermissionScope#CATEGORY}) and blocks when it opens.
 *
 * <p>Must be a pure, thread-safe function: the same call always falls in the same category.
 *
 * <pre>{@code
 * // Every shell command is one category, every file edit another.
 * ToolCategorizer byKind = call -> call.name().startsWith("Bash") ? "shell"
 *         : call.name().endsWith("Edit") ? "edit" : call.name();
 * }</pre>
 */
@FunctionalInterface
public interface ToolCategorizer {

    /** The category of {@code call}; never null or blank. */
    String categoryOf(ToolCall call);

    /** One category per tool name: the default. */
    static ToolCategorizer byToolName() {
        return ToolCall::name;
    }
}
