package io.agentfuse.gateway.mcp;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Optional;

/**
 * What the proxy needs to know of one POSTed JSON-RPC message to pick its guard: the method, the
 * tool of a {@code tools/call}, and the id. In the 2026-07-28 era the {@code Mcp-Method} and
 * {@code Mcp-Name} headers say it, and the body is only read when the proxy must answer itself
 * (it needs the id); in the 2025-11-25 era the body is read. The body itself is relayed as received.
 */
final class McpRequest {

    /** The 2026-07-28 header naming the JSON-RPC method. */
    static final String METHOD_HEADER = "Mcp-Method";
    /** The 2026-07-28 header naming the tool (or resource, prompt) the method acts on. */
    static final String NAME_HEADER = "Mcp-Name";

    private final Buffer body;
    private final String method;
    private final String tool;
    private JsonObject parsed;
    private boolean parsedOnce;

    private McpRequest(Buffer body, String method, String tool) {
        this.body = body;
        this.method = method;
        this.tool = tool;
    }

    /**
     * Reads {@code request}'s routing facts.
     *
     * @throws IllegalArgumentException when the method cannot be known: no {@code Mcp-Method}
     *                                  header and a body that is not a JSON-RPC message or batch
     */
    static McpRequest of(HttpServerRequest request, Buffer body) {
        String headerMethod = request.getHeader(METHOD_HEADER);
        if (headerMethod != null) {
            return new McpRequest(body, headerMethod, request.getHeader(NAME_HEADER));
        }
        McpRequest read = new McpRequest(body, null, null);
        JsonObject message = read.message()
                .orElseThrow(() -> new IllegalArgumentException("the body is not a JSON-RPC message"));
        String method = message.getString("method");
        String tool = "tools/call".equals(method) && message.getValue("params") instanceof JsonObject params
                ? params.getString("name") : null;
        return new McpRequest(body, method, tool).withParsed(message);
    }

    private McpRequest withParsed(JsonObject message) {
        this.parsed = message;
        this.parsedOnce = true;
        return this;
    }

    /** The JSON-RPC method, or {@code null} for a response (a message without one). */
    String method() {
        return method;
    }

    /** The tool of a {@code tools/call}, or {@code null}. */
    String tool() {
        return tool;
    }

    /** Whether this is a call of a named tool, the calls that run under a tool breaker. */
    boolean isToolCall() {
        return "tools/call".equals(method) && tool != null && !tool.isEmpty();
    }

    boolean isToolList() {
        return "tools/list".equals(method);
    }

    /** The request id, or {@code null} for a notification or an unreadable body. */
    Object id() {
        return message().map(json -> json.getValue("id")).orElse(null);
    }

    /**
     * This request with {@code traceContext} ({@code traceparent}, {@code tracestate}) added to its
     * {@code params._meta}, where MCP carries the caller's trace context to the server; the same
     * request when there is none, or the body is not one JSON-RPC object.
     */
    McpRequest withTraceContext(Map<String, String> traceContext) {
        Optional<JsonObject> message = message();
        if (traceContext.isEmpty() || message.isEmpty() || !message.get().containsKey("jsonrpc")) {
            return this;
        }
        JsonObject traced = message.get().copy();
        JsonObject params = traced.getValue("params") instanceof JsonObject given ? given : new JsonObject();
        JsonObject meta = params.getValue("_meta") instanceof JsonObject given ? given : new JsonObject();
        traceContext.forEach(meta::put);
        traced.put("params", params.put("_meta", meta));
        return new McpRequest(traced.toBuffer(), method, tool).withParsed(traced);
    }

    /** The body as received. */
    Buffer body() {
        return body;
    }

    /** The body as one JSON object, parsed once when first asked for; empty for a batch or bad JSON. */
    private Optional<JsonObject> message() {
        if (!parsedOnce) {
            parsedOnce = true;
            try {
                Object value = Json.decodeValue(body);
                parsed = value instanceof JsonObject json ? json : null;
                if (value instanceof JsonArray) {
                    parsed = new JsonObject(); // a batch: no single method or id
                }
            } catch (DecodeException e) {
                parsed = null;
            }
        }
        return Optional.ofNullable(parsed);
    }
}
