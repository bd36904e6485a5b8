package io.agentfuse.gateway.mcp;

import io.agentfuse.gateway.http.HopByHop;
import io.agentfuse.gateway.http.GatewayErrors;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;


/**
 * What the proxy sends back for one POST: the server's answer, untouched, or a JSON-RPC message
 * the proxy made itself (a breaker's rejection, a timeout, an unreachable server).
 */
sealed interface McpReply {

    /** Writes the reply, unless the client has gone. */
    void send(HttpServerResponse response);

    /** The server's answer as received (status, headers less those of one hop, body). */
    record Relayed(McpAnswer answer) implements McpReply {
        @Override
        public void send(HttpServerResponse response) {
            if (response.closed() || response.ended()) {
                return;
            }
            response.setStatusCode(answer.status());
            HopByHop.forEachEndToEnd(answer.headers(), response.headers()::add);
            response.end(answer.body());
        }
    }

    /**
     * A message made by the proxy. An HTTP error carries {@code x-should-retry} by the gateway's
     * rule ({@link GatewayErrors#shouldRetryCircuitOpen}): {@code true} only on a 503, which the
     * proxy sends for an open server breaker alone, that reopens soon, and on a 429, the gateway's
     * own overload, which ends in a second.
     *
     * @param status     the HTTP status
     * @param message    the JSON-RPC message
     * @param retryAfter whole seconds for a {@code Retry-After} header, or -1 for none
     */
    record Made(int status, JsonObject message, long retryAfter) implements McpReply {

        /** The status of a message refused because the server's breaker is open. */
        static final int SERVER_OPEN = 503;
        /** The status of a message refused because the gateway has no connection for it ({@link ConnectionSlots}). */
        static final int OVERLOADED = 429;

        /** The refusal of a request to {@code server} that found all its {@code kind} of slots taken. */
        static Made overloaded(Object id, String server, ConnectionSlots slots) {
            return new Made(OVERLOADED, ProxyAnswers.overloaded(id, server, slots.limit()), ProxyAnswers.OVERLOADED_RETRY_AFTER);
        }

        /**
         * The answer to a message for an MCP endpoint that is not configured (a server, the aggregate):
         * a JSON-RPC error naming what is, as the MCP SDKs read. A request (its {@code id} is not
         * null) gets it with status 200, so that the SDKs hand it to the request as the server's
         * error ({@code McpError}) with these words: a 404 to a request with an {@code Mcp-Session-Id}
         * means "your session expired, initialize again" to them (the MCP transport's rule), a false
         * lead here (after a reload removed the server, the new session would be refused too), and a
         * 4xx reaches the Java SDK's caller as a bare transport error. Anything else (a notification,
         * a {@code GET} stream, a {@code DELETE}) has no request to answer: 404, the error in the body.
         */
        static Made notConfigured(Object id, String message) {
            return new Made(id == null ? 404 : 200, ProxyAnswers.error(id, GatewayErrors.MCP_GATEWAY_ERROR, "not_found",
                    message), -1);
        }

        @Override
        public void send(HttpServerResponse response) {
            if (response.closed() || response.ended()) {
                return;
            }
            response.setStatusCode(status).putHeader("content-type", "application/json");
            if (retryAfter >= 0) {
                response.putHeader("retry-after", Long.toString(retryAfter));
            }
            if (status >= 400) {
                response.putHeader(GatewayErrors.SHOULD_RETRY,
                        Boolean.toString((status == SERVER_OPEN || status == OVERLOADED)
                                && GatewayErrors.shouldRetryCircuitOpen(retryAfter)));
            }
            response.end(message.encode());
        }
    }
}
