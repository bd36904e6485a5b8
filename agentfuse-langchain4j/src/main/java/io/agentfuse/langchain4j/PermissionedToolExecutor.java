package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionBreakerOpenException;
import io.agentfuse.agent.permission.PermissionCheck;
import io.agentfuse.agent.permission.ToolApprover;
import io.agentfuse.agent.permission.ToolCall;

import java.util.Objects;

/**
 * The permission breaker as LangChain4j's tool-approval hook: a {@link ToolExecutor} that asks
 * the session's {@link PermissionBreaker} before each call, asks the user through a
 * {@link ToolApprover} when the breaker says so, and tells the breaker what the user answered.
 *
 * <ul>
 *   <li>{@code AUTO_APPROVE}: the tool runs; the approval is reported as not explicit.</li>
 *   <li>{@code ASK}: the approver is asked. Yes: reported as an explicit approval (while the
 *       breaker is open, that is the user-led probe), and the tool runs. No: reported as a denial,
 *       and the model gets {@code {"error": "PERMISSION_DENIED", "message": ...}} instead.</li>
 *   <li>{@code DENY} (a category blocked after too many denials): neither the user nor the tool
 *       is asked; the model gets the same error, with the breaker's reason.</li>
 *   <li>Headless and open: {@link PermissionBreakerOpenException} is thrown, ending the session
 *       with a clear error, since nobody is there to ask.</li>
 * </ul>
 *
 * The protocol itself is the agent module's {@link PermissionBreaker#check(ToolCall, ToolApprover)},
 * the same for every integration; this class only maps its answer to LangChain4j's. The tool call
 * the breaker (and the approver) sees is the request's name and arguments. Wrap the tool's
 * {@link GuardedToolExecutor} in it (permission first, then the breaker of the tool), so a call
 * the user refuses never counts against the tool. Thread-safe if the tool and the approver are.
 *
 * <pre>{@code
 * PermissionBreaker permissions = runtime.permissionBreaker().autoApproveWhen(call -> !call.name().equals("shell")).build();
 * ToolExecutor shell = PermissionedToolExecutor.of(fuse.toolExecutor("shell", rawShell), permissions, console);
 * }</pre>
 */
public final class PermissionedToolExecutor implements ToolExecutor {

    private final ToolExecutor delegate;
    private final PermissionBreaker permissions;
    private final ToolApprover approver;

    private PermissionedToolExecutor(ToolExecutor delegate, PermissionBreaker permissions, ToolApprover approver) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.permissions = Objects.requireNonNull(permissions, "permissions");
        this.approver = Objects.requireNonNull(approver, "approver");
    }

    /** Runs {@code delegate} only when {@code permissions} (and, when it asks, {@code approver}) allow it. */
    public static PermissionedToolExecutor of(ToolExecutor delegate, PermissionBreaker permissions, ToolApprover approver) {
        return new PermissionedToolExecutor(delegate, permissions, approver);
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        String refusal = refusal(request);
        return refusal != null ? refusal : delegate.execute(request, memoryId);
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        String refusal = refusal(request);
        return refusal != null ? ToolExecutionResult.builder().isError(true).resultText(refusal).build()
                : delegate.executeWithContext(request, context);
    }

    /** The error to give the model, or {@code null} when the tool may run. */
    private String refusal(ToolExecutionRequest request) {
        ToolCall call = new ToolCall(request.name(), request.arguments() == null ? "" : request.arguments());
        PermissionCheck check = permissions.check(call, approver);
        return check.granted() ? null : ToolErrors.permissionDenied(request.name(), check.refusal());
    }

    /** The session's permission breaker. */
    public PermissionBreaker permissions() {
        return permissions;
    }
}
