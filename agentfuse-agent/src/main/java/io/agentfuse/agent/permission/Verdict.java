package io.agentfuse.agent.permission;

/**
 * What to do with a tool call, as answered by {@link PermissionBreaker#decide(ToolCall)}.
 *
 * <pre>{@code
 * switch (breaker.decide(call).verdict()) {
 *     case AUTO_APPROVE -> run(call);
 *     case ASK -> askUser(call);
 *     case DENY -> refuse(call);
 * }
 * }</pre>
 */
public enum Verdict {
    /** Run it without asking. */
    AUTO_APPROVE,
    /** Ask the user, and report the answer with {@code recordApproved} or {@code recordDenied}. */
    ASK,
    /** Refuse it without asking; the reason says how the user can re-enable it. */
    DENY
}
