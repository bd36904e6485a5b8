package io.agentfuse.gateway.mcp;

import java.net.SocketException;

/**
 * The connection to an MCP server failed: refused, reset, or closed before the answer was
 * complete. A {@link SocketException}, so the outcome classifier counts it as
 * {@code CONNECTION_ERROR}, a failure of the tool and of the server's transport ({@code mcp:<server>}).
 */
final class McpTransportException extends SocketException {

    McpTransportException(String message, Throwable cause) {
        super(message);
        if (cause != null) {
            initCause(cause);
        }
    }
}
