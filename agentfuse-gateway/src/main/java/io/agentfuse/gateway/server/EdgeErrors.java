package io.agentfuse.gateway.server;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.provider.Dialects;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * Answers the refusals of the HTTP edge (before any route) as JSON in the caller's dialect
 * ({@link Dialects#ofCaller}). The
 * connection is closed afterwards: a peer that broke a rule is not trusted with the next request.
 *
 * <p>Stateless and thread-safe.
 */
public final class EdgeErrors {

    private EdgeErrors() {
    }

    /** Answers {@code request} with {@code error} and closes its connection. */
    public static void refuse(HttpServerRequest request, GatewayError error, String message) {
        HttpServerResponse response = request.response();
        if (response.ended() || response.closed() || response.headWritten()) {
            Disconnect.now(request.connection());
            return;
        }
        response.putHeader("connection", "close");
        GatewayErrors.respond(response, dialectOf(request), new GatewayException(error, message))
                .onComplete(done -> Disconnect.now(request.connection()));
    }

    /** The dialect errors to {@code request} are written in. */
    static Dialect dialectOf(HttpServerRequest request) {
        return Dialects.ofCaller(request.path() == null ? "" : request.path(), request.headers());
    }

    /**
     * The handler of requests the HTTP codec could not read: framing the gateway refuses, such as
     * {@code Content-Length} together with {@code Transfer-Encoding}, is answered 400
     * {@code invalid_request}; everything else as Vert.x does (431 for a head too large, 414 for a
     * request line too long, 400 otherwise).
     */
    public static void invalid(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        if (cause instanceof StrictRequestDecoder.AmbiguousFramingException ambiguous) {
            refuse(request, GatewayError.INVALID_REQUEST, ambiguous.getMessage());
        } else {
            HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(request);
        }
    }
}
