package io.agentfuse.gateway.mcp;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.Rejection;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The JSON-RPC messages the proxy makes itself. When a breaker is open (docs/design.md §7), without
 * reaching the server:
 * <ul>
 *   <li>an open {@code tool:<server>/<tool>}: a {@code tools/call} result
 *       {@code {"isError": true, "content": [{"type": "text", "text": "CIRCUIT_OPEN: <tool> is unavailable, retry after <s> s"}]}},
 *       which an agent reads like any failed tool and moves on;</li>
 *   <li>an open {@code mcp:<server>}: for a {@code tools/call} the same result, naming the server
 *       ({@link #serverOpenToolResult}); for every other method a JSON-RPC error {@code -32000}
 *       with the same text and {@code data.retryAfter} (seconds).</li>
 * </ul>
 * Every error the proxy makes names its kind in {@code error.data.type} ({@code circuit_open},
 * {@code invalid_request}, {@code timeout}, {@code overloaded}, {@code upstream_unreachable}, {@code upstream_error},
 * {@code internal_error}), the gateway's error types. Pure functions.
 */
final class ProxyAnswers {

    /** The JSON-RPC error code of an open server breaker. */
    static final int SERVER_OPEN_CODE = -32000;

    private ProxyAnswers() {
    }

    /** The text of a rejection of {@code subject}: the seed's fast-fail message. */
    static String text(String subject, long retryAfterSeconds) {
        return Rejection.unavailable(subject, retryAfterSeconds);
    }

    /** Whole seconds a caller refused by {@code open} is told to wait ({@link Rejection#suggestedWaitSeconds}). */
    static long retryAfterSeconds(Rejection open) {
        return open == null ? 0 : open.suggestedWaitSeconds();
    }

    /** Whole seconds a caller refused by {@code breaker} is told to wait (0 when it lets calls through). */
    static long retryAfterSeconds(CircuitBreaker breaker) {
        return retryAfterSeconds(breaker.rejection());
    }

    /** The {@code tools/call} answer for an open tool breaker. */
    static JsonObject toolOpen(Object id, String tool, long retryAfterSeconds) {
        return toolError(id, text(tool, retryAfterSeconds));
    }

    /** A {@code tools/call} result with {@code isError: true} and {@code text}: a failure the agent's model reads. */
    static JsonObject toolError(Object id, String text) {
        JsonObject result = new JsonObject()
                .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", text)))
                .put("isError", true);
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
    }

    /** The answer to a {@code tools/call} while the server's breaker is open: a result the agent's model reads. */
    static JsonObject serverOpenToolResult(Object id, String server, long retryAfterSeconds) {
        return toolOpen(id, server, retryAfterSeconds);
    }

    /** The answer to any request but {@code tools/call} while the server's breaker is open. */
    static JsonObject serverOpen(Object id, String server, long retryAfterSeconds) {
        return error(id, SERVER_OPEN_CODE, text(server, retryAfterSeconds),
                new JsonObject().put("type", "circuit_open").put("retryAfter", retryAfterSeconds).put("breaker", "mcp:" + server));
    }

    /**
     * Adds to the description of {@code tool} (a tool of a {@code tools/list} result, changed in
     * place) that calls of it fail now, and {@code why}; the tool stays listed.
     */
    static void noteUnavailable(JsonObject tool, String why) {
        String description = tool.getValue("description") instanceof String text ? text + " " : "";
        tool.put("description", description + "[agentfuse: this tool is failing; " + why + "]");
    }

    /** Whole seconds a request refused for the gateway's own saturation is told to wait. */
    static final long OVERLOADED_RETRY_AFTER = 1;

    /**
     * The error for a request refused because the gateway has as many requests open to the server as
     * it keeps connections for ({@code limit}): its own overload, not the server's failure.
     */
    static JsonObject overloaded(Object id, String server, int limit) {
        return error(id, SERVER_OPEN_CODE, "the gateway has " + limit + " requests of this kind open to MCP server "
                + server + " already (its connection limit); retry after " + OVERLOADED_RETRY_AFTER + " s",
                new JsonObject().put("type", "overloaded").put("retryAfter", OVERLOADED_RETRY_AFTER));
    }

    /**
     * The error for a request whose answer was larger than the proxy reads ({@code what} names the
     * request, {@code tooLarge} the limit): the proxy cannot relay it or judge it, and says so.
     */
    static JsonObject answerTooLarge(Object id, String what, McpAnswerTooLargeException tooLarge) {
        return error(id, SERVER_OPEN_CODE, "upstream_error", "the answer to " + what + " was too large to relay: "
                + tooLarge.getMessage());
    }

    /** A JSON-RPC error of kind {@code type} (a gateway error type). */
    static JsonObject error(Object id, int code, String type, String message) {
        return error(id, code, message, new JsonObject().put("type", type));
    }

    /** A JSON-RPC error message. */
    static JsonObject error(Object id, int code, String message, JsonObject data) {
        JsonObject error = new JsonObject().put("code", code).put("message", message);
        if (data != null) {
            error.put("data", data);
        }
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", error);
    }
}
