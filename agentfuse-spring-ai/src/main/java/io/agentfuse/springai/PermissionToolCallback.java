package io.agentfuse.springai;

import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionBreakerOpenException;
import io.agentfuse.agent.permission.PermissionCheck;
import io.agentfuse.agent.permission.ToolApprover;
import io.agentfuse.agent.permission.ToolCall;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

import java.util.Objects;

/**
 * A Spring AI {@link ToolCallback} that asks the session's {@link PermissionBreaker} before it runs
 * (docs/design.md §5): an auto-approved call runs; an {@code ASK} goes to the application's
 * {@link ToolApprover} and the user's answer is reported to the breaker; a {@code DENY} (the user
 * has denied this category too often) is refused without asking. A refused call does not run: the
 * model gets {@code "PERMISSION_DENIED: <why>"} as the tool's result, so it can take another way.
 * In headless mode an open breaker has no one to ask, and the call throws
 * {@link PermissionBreakerOpenException}, which ends the agent's turn with a clear error.
 *
 * <p>The protocol itself is the agent module's {@link PermissionBreaker#check(ToolCall, ToolApprover)},
 * the same for every integration; this class only maps its answer to Spring AI's.
 * Thread-safe when the approver is. Use one breaker per agent session: it counts one user's denials.
 *
 * <pre>{@code
 * PermissionBreaker permissions = runtime.permissionBreaker().build();
 * ToolCallback shell = PermissionToolCallback.of(permissions, approver, bashTool);
 * }</pre>
 */
public final class PermissionToolCallback implements ToolCallback {

    /** How a refused call's result starts. */
    public static final String DENIED = "PERMISSION_DENIED";

    private final PermissionBreaker permissions;
    private final ToolApprover approver;
    private final ToolCallback tool;

    private PermissionToolCallback(PermissionBreaker permissions, ToolApprover approver, ToolCallback tool) {
        this.permissions = Objects.requireNonNull(permissions, "permissions");
        this.approver = Objects.requireNonNull(approver, "approver");
        this.tool = Objects.requireNonNull(tool, "tool");
    }

    /** {@code tool}, run as {@code permissions} decides, asking {@code approver} when it says {@code ASK}. */
    public static PermissionToolCallback of(PermissionBreaker permissions, ToolApprover approver, ToolCallback tool) {
        return new PermissionToolCallback(permissions, approver, tool);
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return tool.getToolDefinition();
    }

    @Override
    public ToolMetadata getToolMetadata() {
        return tool.getToolMetadata();
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    /**
     * Runs the tool if the breaker (or the user) allows it, else answers {@code PERMISSION_DENIED}.
     *
     * @throws PermissionBreakerOpenException if the breaker is open in headless mode
     */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
        ToolCall call = new ToolCall(tool.getToolDefinition().name(), toolInput == null ? "" : toolInput);
        PermissionCheck check = permissions.check(call, approver);
        if (!check.granted()) {
            return DENIED + ": " + call.name() + " was not run: " + check.refusal();
        }
        return toolContext == null ? tool.call(toolInput) : tool.call(toolInput, toolContext);
    }

    @Override
    public String toString() {
        return "PermissionToolCallback[" + tool.getToolDefinition().name() + "]";
    }
}
