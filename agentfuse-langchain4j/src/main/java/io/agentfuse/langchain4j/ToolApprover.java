package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import io.agentfuse.agent.permission.PermissionDecision;

/**
 * Asks the user whether a tool call may run: the prompt behind a {@link PermissionedToolExecutor}.
 * Called only when the permission breaker says {@code ASK}, on the thread that executes the tool;
 * it may block while the user decides.
 *
 * <pre>{@code
 * ToolApprover console = (request, decision) ->
 *     System.console().readLine("Run %s %s? [y/N] ", request.name(), request.arguments()).equals("y");
 * }</pre>
 */
@FunctionalInterface
public interface ToolApprover {

    /**
     * Whether the user allows {@code request}; {@code decision} says why they are asked (its
     * {@code reason} is fit to show, e.g. that earlier denials switched auto mode off).
     */
    boolean approve(ToolExecutionRequest request, PermissionDecision decision);
}
