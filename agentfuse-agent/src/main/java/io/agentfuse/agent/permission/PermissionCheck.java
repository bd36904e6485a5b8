package io.agentfuse.agent.permission;

import java.util.Objects;

/**
 * What {@link PermissionBreaker#check(ToolCall, ToolApprover)} concluded: the call may run, or it
 * is refused, with a reason fit to hand the model as the tool's answer (so it can take another
 * way). Immutable.
 *
 * <pre>{@code
 * PermissionCheck check = permissions.check(call, approver);
 * return check.granted() ? tool.run(call) : "PERMISSION_DENIED: " + check.refusal();
 * }</pre>
 *
 * @param granted  whether the call may run
 * @param decision the breaker's decision the check acted on
 * @param refusal  why the call may not run; empty when it is granted
 */
public record PermissionCheck(boolean granted, PermissionDecision decision, String refusal) {

    /** What a refusal says when the user was asked and said no. */
    public static final String USER_DENIED = "the user denied it";

    /** @throws NullPointerException if {@code decision} or {@code refusal} is null */
    public PermissionCheck {
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(refusal, "refusal");
    }

    static PermissionCheck grant(PermissionDecision decision) {
        return new PermissionCheck(true, decision, "");
    }

    static PermissionCheck refuse(PermissionDecision decision, String why) {
        return new PermissionCheck(false, decision, why);
    }
}
