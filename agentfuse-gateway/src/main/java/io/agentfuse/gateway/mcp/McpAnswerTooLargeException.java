package io.agentfuse.gateway.mcp;

/**
 * An MCP server's answer was larger than the proxy reads: its body over {@code maxUpstreamBody}, or
 * one SSE event of it over the longest event the proxy parses. A failed call ({@code ERROR}) of
 * whoever's answer it is: the tool's for a {@code tools/call}, the server's for any other request.
 */
final class McpAnswerTooLargeException extends RuntimeException {

    McpAnswerTooLargeException(long limit) {
        this("the MCP server's answer is larger than " + limit + " bytes (maxUpstreamBody)");
    }

    McpAnswerTooLargeException(String message) {
        super(message, null, false, false);
    }
}
