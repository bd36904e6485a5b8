package io.agentfuse.gateway.mcp;

import java.time.Duration;

/**
 * The limits of the MCP proxy, the same as those of model calls: answers that the proxy reads
 * whole ({@code tools/call}, {@code tools/list}) are bounded by {@code maxUpstreamBody}; a client
 * that stops reading a relayed stream for {@code clientWriteTimeout} is cut off and its upstream
 * call cancelled. Immutable.
 *
 * @param maxUpstreamBody         the longest answer read whole, in bytes ({@code > 0}); default 32 MiB
 * @param clientWriteTimeout      how long a relay waits for a stalled client; default 30 s
 * @param connectTimeout          limit for opening a connection to an MCP server; default 10 s
 * @param maxConnectionsPerServer pooled connections per MCP server; default 64
 */
public record McpProxyOptions(long maxUpstreamBody, Duration clientWriteTimeout, Duration connectTimeout,
                              int maxConnectionsPerServer) {

    public McpProxyOptions {
        if (maxUpstreamBody <= 0) {
            throw new IllegalArgumentException("maxUpstreamBody must be > 0, but was " + maxUpstreamBody);
        }
        if (clientWriteTimeout.isNegative() || clientWriteTimeout.isZero()) {
            throw new IllegalArgumentException("clientWriteTimeout must be > 0, but was " + clientWriteTimeout);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout must be > 0, but was " + connectTimeout);
        }
        if (maxConnectionsPerServer < 1) {
            throw new IllegalArgumentException("maxConnectionsPerServer must be >= 1, but was " + maxConnectionsPerServer);
        }
    }

    /** 32 MiB, 30 s, 10 s, 64. */
    public static McpProxyOptions defaults() {
        return new McpProxyOptions(32L * 1024 * 1024, Duration.ofSeconds(30), Duration.ofSeconds(10), 64);
    }
}
