package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.http.StrictJson;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * One POSTed JSON-RPC message, read once, with what the proxy needs to pick its guard: the method,
 * the tool of a {@code tools/call}, and the id. The body itself is relayed as received, so the
 * proxy refuses every message whose bytes could mean something else to the server than to it
 * (a server that reads them otherwise would run a tool whose breaker is open):
 * <ul>
 *   <li>a batch (MCP dropped JSON-RPC batches in 2025-06-18): {@code -32600};</li>
 *   <li>a key written twice at any depth ({@code "name"} twice: the proxy and the server may each
 *       take another): {@code -32600};</li>
 *   <li>{@code Mcp-Session-Id} sent more than once (the proxy checks that one is the caller's, the
 *       server might use the other): {@code -32600};</li>
 *   <li>{@code Mcp-Method} or {@code Mcp-Name} (the 2026-07-28 routing headers) that disagree with
 *       the body, or that are sent twice: {@code -32001}, as the specification's header mismatch;</li>
 *   <li>a {@code tools/call} without an id (a notification) or with a null one: {@code -32600}. MCP
 *       requests must carry a string or integer id; the proxy could not judge the call (no answer
 *       comes back) and a server that runs it anyway would run a tool whose breaker is open;</li>
 *   <li>a {@code tools/call} without a string {@code params.name}: {@code -32602}.</li>
 * </ul>
 * Refusals never quote a header value (it could be a credential sent in the wrong place).
 * Not thread-safe; one per request.
 */
final class McpRequest {

    /** The 2026-07-28 header naming the JSON-RPC method. */
    static final String METHOD_HEADER = "Mcp-Method";
    /** The 2026-07-28 header naming the tool (or resource, prompt) the method acts on. */
    static final String NAME_HEADER = "Mcp-Name";
    /** The JSON-RPC error code of a routing header that disagrees with the body. */
    static final int HEADER_MISMATCH = -32001;

    private final Buffer body;
    private final JsonObject message;
    private final String method;
    private final String tool;

    private McpRequest(Buffer body, JsonObject message, String method, String tool) {
        this.body = body;
        this.message = message;
        this.method = method;
        this.tool = tool;
    }

    /**
     * Reads the message of a POST with {@code headers} and {@code body}.
     *
     * @throws McpRefusal when the proxy cannot, or must not, tell what the message does
     */
    static McpRequest of(MultiMap headers, Buffer body) {
        JsonObject message = message(body);
        Object id = message.getValue("id");
        session(headers, id);
        Object methodValue = message.getValue("method");
        if (methodValue != null && !(methodValue instanceof String)) {
            throw new McpRefusal(id, -32600, "the method of a JSON-RPC message must be a string");
        }
        String method = (String) methodValue;
        String headerMethod = single(headers, METHOD_HEADER, id);
        if (headerMethod != null && !headerMethod.equals(method)) {
            throw new McpRefusal(id, HEADER_MISMATCH, "header mismatch: the " + METHOD_HEADER
                    + " header does not name the method of the body (" + (method == null ? "none" : method) + ")");
        }
        String tool = null;
        if ("tools/call".equals(method)) {
            if (!(id instanceof String) && !(id instanceof Number)) {
                throw new McpRefusal(null, -32600, "tools/call is a request and needs an id, a string or an integer "
                        + "(MCP: requests must carry one, never null); a call without one has no answer to judge "
                        + "under its tool's breaker, so it is not passed on");
            }
            if (!(message.getValue("params") instanceof JsonObject params) || !(params.getValue("name") instanceof String name)
                    || name.isEmpty()) {
                throw new McpRefusal(id, -32602, "tools/call needs params.name, the name of the tool to call");
            }
            String headerName = single(headers, NAME_HEADER, id);
            if (headerName != null && !headerName.equals(name)) {
                throw new McpRefusal(id, HEADER_MISMATCH, "header mismatch: the " + NAME_HEADER
                        + " header does not name the tool the body calls (params.name)");
            }
            tool = name;
        }
        return new McpRequest(body, message, method, tool);
    }

    private static JsonObject message(Buffer body) {
        StrictJson.FieldSpans spans = new StrictJson.FieldSpans();
        Object value;
        try {
            value = StrictJson.decode(body, spans);
        } catch (DecodeException e) {
            throw new McpRefusal(null, -32700, "parse error: " + e.getMessage());
        }
        if (value instanceof JsonArray) {
            throw new McpRefusal(null, -32600, "JSON-RPC batches are not accepted (MCP removed them in "
                    + "revision 2025-06-18): send one message per request");
        }
        if (!(value instanceof JsonObject message)) {
            throw new McpRefusal(null, -32600, "the body is not a JSON-RPC message (a JSON object)");
        }
        if (spans.repeatedKey()) {
            throw new McpRefusal(message.getValue("id"), -32600,
                    "the message writes a key twice; which one a server reads is not defined, so it is refused");
        }
        return message;
    }

    /**
     * The one {@code Mcp-Session-Id} of a request with {@code headers} (its JSON-RPC {@code id}, if
     * any, goes in a refusal), or null.
     *
     * @throws McpRefusal when it is sent more than once: the proxy checks one whose caller owns it,
     *                    and the server might read another caller's
     */
    static String session(MultiMap headers, Object id) {
        List<String> values = headers.getAll(ServerEndpoint.SESSION_HEADER);
        if (values.size() > 1) {
            throw new McpRefusal(id, -32600, ServerEndpoint.SESSION_HEADER + " is sent more than once; "
                    + "a request belongs to one session");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    /** The one value of {@code header}, or null; a header sent twice is a mismatch in itself. */
    private static String single(MultiMap headers, String header, Object id) {
        List<String> values = headers.getAll(header);
        if (values.size() > 1) {
            throw new McpRefusal(id, HEADER_MISMATCH, "header mismatch: " + header + " is sent more than once");
        }
        return values.isEmpty() ? null : values.get(0);
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
        return tool != null;
    }

    boolean isToolList() {
        return "tools/list".equals(method);
    }

    /**
     * The id of the JSON-RPC request a POST with {@code headers} and {@code body} carries; null for
     * no body, a notification, a response, or a message the proxy cannot read.
     */
    static Object requestIdOf(MultiMap headers, Buffer body) {
        if (body == null) {
            return null;
        }
        try {
            McpRequest request = of(headers, body);
            return request.method() == null ? null : request.id();
        } catch (McpRefusal unreadable) {
            return null;
        }
    }

    /** The request id, or {@code null} for a notification or a response. */
    Object id() {
        return message.getValue("id");
    }

    /** The message as parsed; callers must not change it. */
    JsonObject message() {
        return message;
    }

    /**
     * This request with {@code traceContext} ({@code traceparent}, {@code tracestate}) added to its
     * {@code params._meta}, where MCP carries the caller's trace context to the server; the same
     * request when there is none, or the body is not one JSON-RPC object.
     */
    McpRequest withTraceContext(Map<String, String> traceContext) {
        if (traceContext.isEmpty() || !message.containsKey("jsonrpc")) {
            return this;
        }
        JsonObject traced = message.copy();
        JsonObject params = traced.getValue("params") instanceof JsonObject given ? given : new JsonObject();
        JsonObject meta = params.getValue("_meta") instanceof JsonObject given ? given : new JsonObject();
        traceContext.forEach(meta::put);
        traced.put("params", params.put("_meta", meta));
        return new McpRequest(traced.toBuffer(), traced, method, tool);
    }

    /** The body as received. */
    Buffer body() {
        return body;
    }
}
