package io.agentfuse.gateway.server;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Reads a request body whose {@code Content-Length} is known into one buffer of exactly that
 * size, allocated once when its first piece comes — or takes the one piece it comes in as the body,
 * which is how the request decoder ({@link StrictRequestDecoder}) hands on a long one. The size is
 * the peer's word, so a buffer of that size is made only within the server's {@link BodyAllowance}
 * (until the body has arrived); beyond it, the buffer grows with what arrives. Vert.x's {@code BodyHandler} starts at 1 KB (64 KB at most when told to
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
 *     .handler(new SizedBodyReader(maxBodySize, BodyAllowance.ofHeap()))
 *     .handler(BodyHandler.create(false).setBodyLimit(maxBodySize))
 *     .handler(pipeline.handler(Dialects.ANTHROPIC));
 * }</pre>
 */
public final class SizedBodyReader implements PlatformHandler {

    private static final int TOO_LARGE = 413;
    /** The first buffer of a body that grows as it arrives (the size Vert.x's {@code BodyHandler} starts at). */
    private static final int MIN_GROWING_BUFFER = 1024;

    private final long maxBodySize;
    private final BodyAllowance allowance;

    /**
     * @param maxBodySize the limit of the {@code BodyHandler} that follows, in bytes ({@code server.maxBodySize})
     * @param allowance   what bodies not yet arrived may hold, over every request of the server
     */
    public SizedBodyReader(long maxBodySize, BodyAllowance allowance) {
        if (maxBodySize < 0) {
            throw new IllegalArgumentException("maxBodySize must be >= 0, but was " + maxBodySize);
        }
        this.maxBodySize = maxBodySize;
        this.allowance = Objects.requireNonNull(allowance, "allowance");
    }

    @Override
    public void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        long length = knownLength(request);
        if (!takes(request, length) || !VertxHooks.claimBody(ctx)) {
            ctx.next();
            return;
        }
        read(request, length, release -> ctx.addEndHandler(ignored -> release.run()), body -> {
            VertxHooks.setBody(ctx, body);
            ctx.next();
        }, () -> ctx.fail(TOO_LARGE));
        request.resume(); // a router may have paused it
    }

    /**
     * Reads {@code request}'s body as {@link #handle} does, for a request served without a router:
     * hands it to {@code onBody} once it has arrived, or runs {@code onTooLarge} if it outgrows
     * the limit. Answers false, having read nothing, for a request it does not take (see the class
     * comment): the router's {@code BodyHandler} must read that one. Call it from the server's
     * request handler, before anything paused the request: its body then flows to the reader as
     * it is read, without the task a {@code resume()} queues on the request's context.
     */
    public boolean read(HttpServerRequest request, Consumer<Buffer> onBody, Runnable onTooLarge) {
        long length = knownLength(request);
        if (!takes(request, length)) {
            return false;
        }
        // Until the body has arrived nothing else watches the response; then its reader does.
        read(request, length, release -> request.response().endHandler(ignored -> release.run()), onBody, onTooLarge);
        return true;
    }

    private boolean takes(HttpServerRequest request, long length) {
        return length > 0 && length <= maxBodySize && !request.isEnded();
    }

    /**
     * @param onRequestEnd registers what must run if the request ends before its body has arrived
     */
    private void read(HttpServerRequest request, long length, Consumer<Runnable> onRequestEnd,
                      Consumer<Buffer> onBody, Runnable onTooLarge) {
        Body body = new Body(onRequestEnd, length);
        request.handler(chunk -> {
            if (body.failed) {
                return;
            }
            if (body.length() + chunk.length() > maxBodySize) {
                body.failed = true;
                body.release();
                onTooLarge.run();
                return;
            }
            body.add(chunk);
        }).endHandler(ignored -> {
            body.release();
            if (!body.failed) {
                onBody.accept(body.received());
            }
        });
    }

    /**
     * The body of one request as it arrives: the one piece it comes in (the request decoder gathers
     * long ones), else pieces appended to a buffer of its announced size when the allowance has room
     * for it, or to a buffer that grows with what arrives when it has not.
     */
    private final class Body {
        private final Consumer<Runnable> onRequestEnd;
        private final long announced;
        private Buffer received;
        private BodyAllowance.Reservation reservation;
        private boolean failed;

        Body(Consumer<Runnable> onRequestEnd, long announced) {
            this.onRequestEnd = onRequestEnd;
            this.announced = announced;
        }

        long length() {
            return received == null ? 0 : received.length();
        }

        void add(Buffer chunk) {
            if (received != null) {
                received.appendBuffer(chunk);
            } else if (chunk.length() == announced) {
                received = chunk;
            } else {
                reservation = allowance.reserve(announced);
                if (reservation != null) {
                    onRequestEnd.accept(this::release); // a request that ends before its body has arrived
                }
                int capacity = reservation != null ? (int) announced : Math.max(MIN_GROWING_BUFFER, 2 * chunk.length());
                received = Buffer.buffer(capacity).appendBuffer(chunk);
            }
        }

        Buffer received() {
            return received == null ? Buffer.buffer() : received;
        }

        void release() {
            if (reservation != null) {
                reservation.release();
                reservation = null;
            }
        }
    }

    /**
     * The {@code Content-Length} of an HTTP/1.x request framed by it alone and expecting nothing;
     * -1 for any other request (the {@code BodyHandler} reads those).
     */
    static long knownLength(HttpServerRequest request) {
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
