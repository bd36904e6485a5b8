package io.agentfuse.agent.permission;

/**
 * Asks the user whether a tool call may run: the application's prompt, called by
 * {@link PermissionBreaker#check(ToolCall, ToolApprover)} only when the breaker's verdict is
 * {@link Verdict#ASK}, on the thread that checks; it may block while the user decides. The one
 * approver interface of every integration (LangChain4j's tool executor, Spring AI's tool callback).
 *
 * <pre>{@code
 * ToolApprover console = (call, decision) ->
 *     System.console().readLine("Run %s %s? (%s) [y/N] ", call.name(), call.input(), decision.reason()).equals("y");
 * }</pre>
 */
@FunctionalInterface
public interface ToolApprover {

    /**
     * Whether the user allows {@code call}; {@code decision} says why they are asked (its
     * {@code reason} is fit to show, e.g. that earlier denials switched auto mode off).
     */
    boolean approve(ToolCall call, PermissionDecision decision);
}
