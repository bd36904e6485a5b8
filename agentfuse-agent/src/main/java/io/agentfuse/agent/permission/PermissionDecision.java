package io.agentfuse.agent.permission;

import java.util.Objects;

/**
 * The answer of {@link PermissionBreaker#decide(ToolCall)}: what to do, and why, in words fit to
 * show the user. Immutable.
 *
 * <pre>{@code
 * PermissionDecision decision = breaker.decide(call);
 * if (decision.verdict() == Verdict.DENY) { ui.show(decision.reason()); }
 * }</pre>
 *
 * @param verdict  what to do
 * @param category the call's category
 * @param state    the breaker's state when it decided
 * @param reason   why, for the user
 */
public record PermissionDecision(Verdict verdict, String category, PermissionState state, String reason) {

    /** @throws NullPointerException if an argument is null */
    public PermissionDecision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
    }
}
