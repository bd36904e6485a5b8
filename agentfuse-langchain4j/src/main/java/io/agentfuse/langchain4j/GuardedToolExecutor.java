package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.core.Guard;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.Rejection;

import java.util.Objects;

/**
 * A LangChain4j {@link ToolExecutor} behind the tool's own {@link Guard}: its breaker (e.g.
 * {@code tool:web_search}), retries and timeout. While the breaker is open the tool is not called
 * and the model gets the seed's structured error as the tool's result
 * ({@code {"error": "CIRCUIT_OPEN", "message": ..., "retryAfter": 300}}; an error result in
 * {@link #executeWithContext}), so the agent goes on without it instead of failing the whole
 * conversation. A call that was made and failed throws as the tool threw, after the guard's
 * retries, so LangChain4j's own tool-error handling applies to it.
 *
 * <p>Thread-safe if the tool is.
 *
 * <pre>{@code
 * ToolExecutor search = GuardedToolExecutor.of("web_search", rawSearch, fuse.toolGuard("web_search"));
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(model)
 *     .tools(Map.of(searchSpecification, search))
 *     .build();
 * }</pre>
 */
public final class GuardedToolExecutor implements ToolExecutor {

    private final String tool;
    private final ToolExecutor delegate;
    private final Guard guard;

    private GuardedToolExecutor(String tool, ToolExecutor delegate, Guard guard) {
        this.tool = Objects.requireNonNull(tool, "tool");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** Runs {@code delegate}, the tool {@code tool}, under {@code guard}. */
    public static GuardedToolExecutor of(String tool, ToolExecutor delegate, Guard guard) {
        return new GuardedToolExecutor(tool, delegate, guard);
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        try {
            return guard.execute(() -> delegate.execute(request, memoryId));
        } catch (CircuitOpenException open) {
            return ToolErrors.circuitOpen(tool, ownRejection(open));
        }
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        try {
            return guard.execute(() -> delegate.executeWithContext(request, context));
        } catch (CircuitOpenException open) {
            return ToolExecutionResult.builder().isError(true).resultText(ToolErrors.circuitOpen(tool, ownRejection(open))).build();
        }
    }

    /**
     * The guard's own breaker refused the call: the guard throws that only when the tool was not
     * called. Another breaker's rejection (from inside the tool) is the tool's failure, thrown on.
     */
    private Rejection ownRejection(CircuitOpenException open) {
        CircuitBreaker breaker = guard.circuitBreaker();
        if (breaker == null || breaker.isInnerRejection(open)) {
            throw open;
        }
        return open.rejection();
    }

    /** The tool's name. */
    public String tool() {
        return tool;
    }

    /** Its guard. */
    public Guard guard() {
        return guard;
    }
}
