package io.agentfuse.springai;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.core.Guard;
import io.agentfuse.core.breaker.CircuitOpenException;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A Spring AI {@link ToolCallback} behind its tool's agentfuse {@link Guard} (breaker
 * {@code tool:<name>}, the tool's timeout and retries from the {@code tools:} config). While the
 * breaker is open the tool is not called: the model gets the answer
 * {@code "CIRCUIT_OPEN: <tool> is unavailable, retry after <s> s"} as the tool's result, as an
 * agent gets from the gateway's MCP proxy, so it can carry on without the tool. A failure is
 * thrown as the tool threw it, after the guard classified it ({@link ModelFailures}) and retried
 * it if the config says so.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * ToolCallback search = GuardedToolCallback.of(runtime, FunctionToolCallback.builder("web_search", searchFn)
 *     .inputType(Query.class).build());
 * }</pre>
 */
public final class GuardedToolCallback implements ToolCallback {

    private final ToolCallback tool;
    private final Supplier<Guard> guards;

    private GuardedToolCallback(ToolCallback tool, Supplier<Guard> guards) {
        this.tool = Objects.requireNonNull(tool, "tool");
        this.guards = guards;
    }

    /**
     * {@code tool} behind {@code runtime}'s guard for its name, {@code tool:<name>}, fetched at each
     * call so that a config reload's settings apply at once.
     */
    public static GuardedToolCallback of(AgentfuseRuntime runtime, ToolCallback tool) {
        Objects.requireNonNull(runtime, "runtime");
        String name = tool.getToolDefinition().name();
        return new GuardedToolCallback(tool, () -> runtime.toolGuard(name));
    }

    /** {@code tool} behind {@code guard}. */
    public static GuardedToolCallback of(Guard guard, ToolCallback tool) {
        Objects.requireNonNull(guard, "guard");
        return new GuardedToolCallback(tool, () -> guard);
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

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        try {
            return guards.get().execute(() -> {
                try {
                    return toolContext == null ? tool.call(toolInput) : tool.call(toolInput, toolContext);
                } catch (RuntimeException failure) {
                    throw ModelFailures.translate(failure);
                }
            });
        } catch (CircuitOpenException open) {
            return open.rejection().unavailable(tool.getToolDefinition().name());
        } catch (RuntimeException failure) {
            throw ModelFailures.original(failure);
        }
    }

    @Override
    public String toString() {
        return "GuardedToolCallback[" + tool.getToolDefinition().name() + "]";
    }
}
