/**
 * A scriptable mock MCP server ({@link io.agentfuse.mock.mcp.MockMcpServer}) on the streamable-HTTP
 * transport, in the 2025-11-25 (sessions, SSE, {@code GET} stream) and 2026-07-28 (stateless) eras,
 * for the MCP proxy's tests and the demo.
 */
package io.agentfuse.mock.mcp;
