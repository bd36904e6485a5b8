package io.agentfuse.gateway.server;

import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.agentfuse.gateway.provider.Dialects;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.util.Locale;

/**
 * Answers the refusals of the HTTP edge (before any route) as JSON in the caller's dialect
 * ({@link Dialects#ofCaller}), or as a JSON-RPC error on the MCP endpoints. The
 * connection is closed afterwards: a peer that broke a rule is not trusted with the next request.
 *
 * <p>Stateless and thread-safe.
 */
public final class EdgeErrors {

    private EdgeErrors() {
    }

    /** Answers {@code request} with {@code error} and closes its connection. */
    public static void refuse(HttpServerRequest request, GatewayError error, String message) {
        refuse(request, new GatewayException(error, message));
    }

    /**
     * Answers {@code request}, whose body has been read whole, with {@code refusal} (and its
     * {@code Retry-After}, if any), and closes its connection gracefully once the answer is written,
     * so that the caller reads the answer before the close: a reset would drop it.
     */
    static void refuseRead(HttpServerRequest request, GatewayException refusal) {
        request.response().putHeader("connection", "close"); // Vert.x closes the connection after the answer
        answer(request, refusal);
    }

    /**
     * Refuses {@code request} once the rest of its body has arrived, dropped as it comes (never
     * kept), as {@link #refuseRead} does: answered while the caller is still sending, the close
     * would reset the connection before the caller reads the answer.
     */
    static void refuseAfterBody(HttpServerRequest request, GatewayException refusal) {
        request.handler(dropped -> { }).endHandler(read -> refuseRead(request, refusal));
    }

    /**
     * Answers {@code request}, whose body broke its chunked framing as it arrived, 400
     * {@code invalid_request}, unless its answer is written already (a route that reads no body
     * answers at once). Vert.x closes the connection as soon as the break has been told (nothing
     * after it can be read as HTTP), so whichever answer it has is flushed at once, ahead of that close.
     */
    static void refuseBrokenBody(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        if (response.closed()) {
            return;
        }
        if (!response.ended() && !response.headWritten()) { // else the answer begun is all that can be told
            refuseRead(request, new GatewayException(GatewayError.INVALID_REQUEST, "the request is not valid HTTP/1.1: the"
                    + " body's chunked framing is broken (a chunk size that is not a hexadecimal number, or a chunk not followed by CRLF)"));
        }
        VertxHooks.channel(request.connection()).flush();
    }

    /** Answers {@code request} with {@code refusal} and closes its connection; one whose answer has begun is cut off. */
    static void refuse(HttpServerRequest request, GatewayException refusal) {
        HttpServerResponse response = request.response();
        if (response.ended() || response.closed() || response.headWritten()) {
            Disconnect.now(request.connection());
            return;
        }
        response.putHeader("connection", "close");
        answer(request, refusal).onComplete(done -> Disconnect.now(request.connection()));
    }

    /**
     * Answers {@code request} with {@code refusal}: a JSON-RPC error on the MCP endpoints (an MCP
     * client reads no model dialect's error), else in the caller's dialect.
     */
    private static Future<Void> answer(HttpServerRequest request, GatewayException refusal) {
        String path = request.path() == null ? "" : request.path();
        return path.startsWith("/mcp") ? GatewayErrors.respondMcp(request.response(), refusal)
                : GatewayErrors.respond(request.response(), dialectOf(request), refusal);
    }

    /** The dialect errors to {@code request} are written in. */
    static Dialect dialectOf(HttpServerRequest request) {
        return Dialects.ofCaller(request.path() == null ? "" : request.path(), request.headers());
    }

    /**
     * The handler of requests the HTTP codec could not read, each answered as JSON and its
     * connection closed: a head over {@code options}' limit 431 and a request line over it 414
     * ({@code request_too_large}); framing the gateway refuses, such as {@code Content-Length}
     * together with {@code Transfer-Encoding}, and anything else that is not HTTP/1.1 400
     * {@code invalid_request}, saying what kind of thing was wrong ({@link #whatIsWrong}).
     */
    public static void invalid(HttpServerRequest request, HttpServerOptions options) {
        Throwable cause = request.decoderResult().cause();
        if (cause instanceof StrictRequestDecoder.AmbiguousFramingException ambiguous) {
            refuse(request, GatewayError.INVALID_REQUEST, ambiguous.getMessage());
        } else if (cause instanceof TooLongHttpHeaderException) {
            refuse(request, GatewayError.HEADERS_TOO_LARGE,
                    "the request's headers are larger than " + options.getMaxHeaderSize() + " bytes together");
        } else if (cause instanceof TooLongHttpLineException) {
            refuse(request, GatewayError.REQUEST_LINE_TOO_LONG,
                    "the request line is longer than " + options.getMaxInitialLineLength() + " bytes");
        } else {
            refuse(request, GatewayError.INVALID_REQUEST, whatIsWrong(cause));
        }
    }

    /**
     * What was wrong with a request head the codec refused, in words of our own. The codec's
     * message is never passed on: it quotes the offending value, and a header value is often a
     * key or a token (an {@code Authorization} with a stray control character, say), which must
     * appear in no answer and no log line. Only the kind of fault is read from it.
     */
    static String whatIsWrong(Throwable cause) {
        String said = cause == null || cause.getMessage() == null ? "" : cause.getMessage().toLowerCase(Locale.ROOT);
        String kind;
        if (said.contains("header value") || said.contains("after '\\r'")) {
            kind = "a header value holds a character HTTP does not allow there (a control character, or CR without LF)";
        } else if (said.contains("header name")) {
            kind = "a header name holds a character HTTP does not allow there";
        } else if (said.contains("content-length") && said.contains("transfer-encoding")) {
            kind = "it has both Content-Length and Transfer-Encoding (RFC 9112 section 6.1)";
        } else if (said.contains("transfer coding") || said.contains("transfer-encoding")) {
            kind = "its Transfer-Encoding is not the one HTTP/1.1 takes (chunked, once, and last)";
        } else if (said.contains("content-length")) {
            kind = "the Content-Length header is not one whole number";
        } else if (said.contains("version")) {
            kind = "the request line does not end with a known HTTP version";
        } else if (said.contains("chunk")) {
            kind = "the body's chunked framing is broken";
        } else {
            kind = "its head cannot be read";
        }
        return "the request is not valid HTTP/1.1: " + kind + " (the value is not repeated here)";
    }
}
