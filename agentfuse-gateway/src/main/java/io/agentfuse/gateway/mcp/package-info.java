/**
 * The MCP streamable-HTTP proxy: {@link io.agentfuse.gateway.mcp.McpProxy} serves
 * {@code /mcp/{server}}, which relays each request to its server, and {@code /mcp}, which serves
 * the servers of {@code mcp.aggregate} as one; both run {@code tools/call} under the tool's breaker
 * ({@code tool:<server>/<tool>}) and every request under the server's ({@code mcp:<server>}), keep
 * each session to the caller that opened it ({@link io.agentfuse.gateway.mcp.CallerIdentity}), and
 * relay answers untouched apart from what those breakers decide.
 */
package io.agentfuse.gateway.mcp;
