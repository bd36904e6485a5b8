/**
 * The MCP streamable-HTTP proxy at {@code /mcp/{server}}: {@link io.agentfuse.gateway.mcp.McpProxy}
 * routes each request to its server, runs {@code tools/call} under the tool's breaker
 * ({@code tool:<server>/<tool>}) and every request under the server's ({@code mcp:<server>}), and
 * relays answers and streams untouched apart from what those breakers decide.
 */
package io.agentfuse.gateway.mcp;
