package io.agentfuse.springai;

import io.agentfuse.agent.permission.PermissionDecision;
import io.agentfuse.agent.permission.ToolCall;

/**
 * Asks the user whether a tool call may run: the application's prompt, called by
 * {@link PermissionToolCallback} when the permission breaker's verdict is {@code ASK}. It may block
 * until the user answers.
 *
 * <pre>{@code
 * ToolApprover approver = (call, decision) -> ui.confirm("Run " + call.name() + "? " + decision.reason());
 * }</pre>
 */
@FunctionalInterface
public interface ToolApprover {

    /** Whether the user allows {@code call}; {@code decision} says why they are asked. */
    boolean approve(ToolCall call, PermissionDecision decision);
}
