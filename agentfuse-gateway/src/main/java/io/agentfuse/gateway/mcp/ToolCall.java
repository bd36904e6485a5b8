package io.agentfuse.gateway.mcp;

import io.agentfuse.config.McpServerConfig;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * One {@code tools/call} as it goes to its server.
 *
 * @param server    the server
 * @param tool      the tool's name on the server
 * @param shownName the name the caller knows the tool by (itself, or {@code <server>__<tool>} through the aggregate)
 * @param id        the JSON-RPC id of the request sent to the server
 * @param message   the message sent, parsed (its {@code params._meta} goes along with a cancellation)
 * @param body      the message's bytes as sent
 * @param headers   the headers sent (session, protocol version, credentials)
 */
record ToolCall(McpServerConfig server, String tool, String shownName, Object id, JsonObject message, Buffer body,
                MultiMap headers) {

    ToolCall {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(shownName, "shownName");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(headers, "headers");
    }

    /** The call of a request relayed as received to {@code server}. */
    static ToolCall relayed(McpServerConfig server, McpRequest request, MultiMap headers) {
        return new ToolCall(server, request.tool(), request.tool(), request.id(), request.message(), request.body(), headers);
    }

    /**
     * The {@code notifications/cancelled} that tells the server to stop working on this call
     * (MCP cancellation), with the call's session and version headers and its {@code _meta}.
     */
    Cancellation cancellation(String reason) {
        JsonObject params = new JsonObject().put("requestId", id).put("reason", reason);
        if (message.getValue("params") instanceof JsonObject sent && sent.getValue("_meta") instanceof JsonObject meta) {
            params.put("_meta", meta.copy());
        }
        JsonObject notification = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
                .put("params", params);
        MultiMap sent = MultiMap.caseInsensitiveMultiMap().addAll(headers);
        sent.remove("content-length");
        sent.remove(McpRequest.NAME_HEADER);
        if (sent.contains(McpRequest.METHOD_HEADER)) {
            sent.set(McpRequest.METHOD_HEADER, "notifications/cancelled");
        }
        return new Cancellation(notification.toBuffer(), sent);
    }

    /** A cancellation notification's body and headers. */
    record Cancellation(Buffer body, MultiMap headers) {
    }
}
