package io.agentfuse.gateway.mcp;

import io.vertx.core.json.JsonObject;

/**
 * A message the proxy refuses to pass on, with the JSON-RPC error it answers (HTTP 400,
 * {@code error.data.type: invalid_request}). Cheap: no stack trace.
 */
final class McpRefusal extends RuntimeException {

    private final transient Object id;
    private final int code;

    McpRefusal(Object id, int code, String message) {
        super(message, null, false, false);
        this.id = id;
        this.code = code;
    }

    /** The refusal as the proxy sends it. */
    McpReply reply() {
        JsonObject error = ProxyAnswers.error(id, code, "invalid_request", getMessage());
        return new McpReply.Made(400, error, -1);
    }
}
