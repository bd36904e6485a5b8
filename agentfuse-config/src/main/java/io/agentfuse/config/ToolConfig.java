package io.agentfuse.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How calls to one tool are guarded: its time limit, its retries and its breaker. This is the
 * seed's second OpenClaw block ({@code tools:}), and it loads as written.
 *
 * <p>A tool entry is merged key by key over its MCP server's settings, which are merged over
 * the defaults ({@link ConfigDefaults#TOOL} for tools outside MCP servers,
 * {@link ConfigDefaults#MCP_TOOL} inside). Retries wait as the top-level {@code retry}
 * section says; only the number of attempts is the tool's own. Immutable and thread-safe.
 *
 * <pre>{@code
 * tools:
 *   web_search:
 *     timeout: 30              # a bare number is seconds
 *     retries: 2
 *     circuitBreaker:
 *       failureThreshold: 5    # 5 failures in a row open the breaker
 *       resetTimeout: 300000   # a bare number is milliseconds here: 5 minutes
 *       halfOpenRequests: 1
 * }</pre>
 *
 * <p>The MCP proxy retries a tool only when it is safe to: when the server marks the tool
 * {@code idempotentHint: true}, or when the tool's own {@code tools:} entry names {@code retries}
 * ({@link #explicitRetries()}); a server-wide {@code retries} applies to idempotent tools only.
 *
 * @param timeout         a call's time limit ({@code > 0})
 * @param retries         retries after the first attempt ({@code >= 0})
 * @param circuitBreaker  the breaker of this tool
 * @param explicitRetries whether {@code retries} was written in this tool's own {@code tools:} entry
 */
public record ToolConfig(Duration timeout, int retries, BreakerConfig circuitBreaker, boolean explicitRetries) {

    public ToolConfig {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(circuitBreaker, "circuitBreaker");
    }

    /** Settings whose {@code retries} is a default, not written for the tool itself. */
    public ToolConfig(Duration timeout, int retries, BreakerConfig circuitBreaker) {
        this(timeout, retries, circuitBreaker, false);
    }

    /**
     * Attempts in all for a call of an MCP tool: {@link #maxAttempts()} when the tool is
     * idempotent or its entry asks for retries explicitly, else one.
     */
    public int maxAttempts(boolean idempotent) {
        return idempotent || explicitRetries ? maxAttempts() : 1;
    }

    /** Attempts in all, the first included. */
    public int maxAttempts() {
        return retries + 1;
    }
}
