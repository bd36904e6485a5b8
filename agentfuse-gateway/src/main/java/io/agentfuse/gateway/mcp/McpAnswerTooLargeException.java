package io.agentfuse.gateway.mcp;

/** An MCP server's answer was longer than the proxy buffers; counted as a failed call ({@code ERROR}). */
final class McpAnswerTooLargeException extends RuntimeException {

    McpAnswerTooLargeException(long limit) {
        super("the MCP server's answer is longer than " + limit + " bytes (maxUpstreamBody)");
    }
}
