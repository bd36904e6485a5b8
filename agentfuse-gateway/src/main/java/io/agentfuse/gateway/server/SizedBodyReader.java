package io.agentfuse.gateway.server;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;
import io.vertx.ext.web.impl.RoutingContextInternal;

/**
 * Reads a request body whose {@code Content-Length} is known into one buffer of exactly that
 * size, allocated once — or takes the one piece it comes in as the body, which is how the request
 * decoder ({@link StrictRequestDecoder}) hands on a long one. Vert.x's {@code BodyHandler} starts at 1 KB (64 KB at most when told to
 * preallocate) and doubles: a 150 KB conversation cost 256 KB of final buffer, as much again in
 * the buffers it outgrew, and the copies between them.
 *
 * <p>Installed in front of a {@code BodyHandler} with the same limit, which keeps every other
 * case as it was: no length (chunked), a length over the limit (413 {@code request_too_large}),
 * {@code Expect}, HTTP/2, a body already read. A request this reader took is marked as read, so
 * the {@code BodyHandler} after it only passes it on. The 413 for a body that outgrows its limit
 * stays here too, although HTTP/1.1 framing never delivers more than the length said.
 *
 * <p>A {@link PlatformHandler} only so that Vert.x lets it stand before the {@code BodyHandler}
 * (a route orders its handlers by kind). Stateless and thread-safe; each request gets its own buffer.
 *
 * <pre>{@code
 * router.post("/v1/messages")
 *     .handler(new SizedBodyReader(maxBodySize))
 *     .handler(BodyHandler.create(false).setBodyLimit(maxBodySize))
 *     .handler(pipeline.handler(Dialects.ANTHROPIC));
 * }</pre>
 */
public final class SizedBodyReader implements PlatformHandler {

    private static final int TOO_LARGE = 413;

    private final long maxBodySize;

    /** @param maxBodySize the limit of the {@code BodyHandler} that follows, in bytes ({@code server.maxBodySize}) */
    public SizedBodyReader(long maxBodySize) {
        if (maxBodySize < 0) {
            throw new IllegalArgumentException("maxBodySize must be >= 0, but was " + maxBodySize);
        }
        this.maxBodySize = maxBodySize;
    }

    @Override
    public void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        long length = knownLength(request);
        if (length <= 0 || length > maxBodySize || request.isEnded()
                || !(ctx instanceof RoutingContextInternal internal)
                || internal.seenHandler(RoutingContextInternal.BODY_HANDLER)) {
            ctx.next();
            return;
        }
        internal.visitHandler(RoutingContextInternal.BODY_HANDLER);
        // The body as one piece when it comes so (the request decoder gathers long ones), else
        // pieces appended to a buffer of its size.
        Buffer[] body = new Buffer[1];
        boolean[] failed = new boolean[1];
        request.handler(chunk -> {
            if (failed[0]) {
                return;
            }
            long read = body[0] == null ? 0 : body[0].length();
            if (read + chunk.length() > maxBodySize) {
                failed[0] = true;
                ctx.fail(TOO_LARGE);
                return;
            }
            if (body[0] == null) {
                body[0] = chunk.length() == length ? chunk : Buffer.buffer((int) length).appendBuffer(chunk);
            } else {
                body[0].appendBuffer(chunk);
            }
        }).endHandler(ignored -> {
            if (!failed[0]) {
                internal.setBody(body[0] == null ? Buffer.buffer() : body[0]);
                ctx.next();
            }
        }).resume();
    }

    /**
     * The {@code Content-Length} of an HTTP/1.x request framed by it alone and expecting nothing;
     * -1 for any other request (the {@code BodyHandler} reads those).
     */
    private static long knownLength(HttpServerRequest request) {
        if (request.version() == HttpVersion.HTTP_2) {
            return -1;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null
                || request.getHeader(HttpHeaders.EXPECT) != null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
