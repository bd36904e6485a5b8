package io.agentfuse.gateway.tracing;

import java.util.Map;

/**
 * The span of one call through the MCP proxy; {@link #NONE} (tracing off) does nothing.
 * Thread-safe.
 */
public interface McpCallTrace {

    /** A trace that records nothing. */
    McpCallTrace NONE = new McpCallTrace() {
    };

    /**
     * The trace context to hand to the MCP server ({@code traceparent}, and {@code tracestate} when
     * there is one), for the request's {@code params._meta}; empty when nothing is traced.
     */
    default Map<String, String> propagation() {
        return Map.of();
    }

    /** The call ended with HTTP {@code status}; the span is finished. */
    default void ended(int status) {
    }
}
