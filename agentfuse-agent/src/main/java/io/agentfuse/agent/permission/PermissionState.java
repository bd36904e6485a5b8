package io.agentfuse.agent.permission;

/**
 * The states of a {@link PermissionBreaker}.
 *
 * <pre>{@code
 * if (breaker.state() == PermissionState.OPEN) { ui.showBanner("manual-confirm mode"); }
 * }</pre>
 */
public enum PermissionState {
    /** Auto mode: calls are approved or asked about as the agent's own policy says. */
    CLOSED,
    /** Manual-confirm mode: the tripped category is denied without asking, everything else asks. */
    OPEN,
    /** Auto mode on trial after an explicit approval: the next approval closes, the next denial reopens. */
    HALF_OPEN
}
