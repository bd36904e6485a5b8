package io.agentfuse.gateway.server;

import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Reads a request body whose {@code Content-Length} is known into one buffer of exactly that
 * size, allocated once when its first piece comes — or takes the one piece it comes in as the body,
 * which is how the request decoder ({@link StrictRequestDecoder}) hands on a long one. The size is
 * the peer's word, so a buffer of that size is made only within the server's {@link BodyAllowance}
 * (until the body has arrived); beyond it, the buffer grows with what arrives. Vert.x's
 * {@code BodyHandler} starts at 1 KB (64 KB at most when told to preallocate) and doubles: a 150 KB
 * conversation cost 256 KB of final buffer, as much again in the buffers it outgrew, and the copies
 * between them.
 *
 * <p>A chunked body is read too, into a buffer that grows, and counted against the
 * {@link LargeBodies} budget as the most it may be while it arrives
 * ({@link LargeBodies#countedWhileArriving}; an announced one was counted when its head came), then
 * as what it is: without room, the rest of it is dropped and the request refused, 429
 * {@code overloaded}. A
 * caller that expects {@code 100-continue} (curl does, for bodies over 1 MB) is sent it here, once
 * the reader is in place.
 *
 * <p>Installed in front of a {@code BodyHandler} with the same limit, which keeps every other
 * case as it was: a length over the limit (413 {@code request_too_large}), another {@code Expect},
 * HTTP/2, a body already read. A request this reader took is marked as read, so the
 * {@code BodyHandler} after it only passes it on. A body that outgrows the limit is answered 413 here.
 *
 * <p>A {@link PlatformHandler} only so that Vert.x lets it stand before the {@code BodyHandler}
 * (a route orders its handlers by kind). Stateless and thread-safe; each request gets its own buffer.
 *
 * <pre>{@code
 * SizedBodyReader bodies = new SizedBodyReader(maxBodySize, BodyAllowance.ofHeap());
 * bodies.reading(router.post("/v1/messages")).handler(pipeline.handler(Dialects.ANTHROPIC));
 * }</pre>
 */
public final class SizedBodyReader implements PlatformHandler {

    private static final int TOO_LARGE = 413;
    /** The first buffer of a body that grows as it arrives (the size Vert.x's {@code BodyHandler} starts at). */
    private static final int MIN_GROWING_BUFFER = 1024;
    /** The length of a body that is not announced (chunked): it is known once it has arrived. */
    private static final long ARRIVING = -2;

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

    /**
     * {@code route} with its request bodies read: by this reader, and by a {@code BodyHandler} of the
     * same limit for the requests it leaves (see the class comment).
     */
    public Route reading(Route route) {
        return route.handler(this).handler(BodyHandler.create(false).setBodyLimit(maxBodySize));
    }

    @Override
    public void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        long length = bodyLength(request);
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
        long length = bodyLength(request);
        if (!takes(request, length)) {
            return false;
        }
        // Until the body has arrived nothing else watches the response; then its reader does.
        read(request, length, release -> request.response().endHandler(ignored -> release.run()), onBody, onTooLarge);
        return true;
    }

    private boolean takes(HttpServerRequest request, long length) {
        return (length == ARRIVING || length > 0 && length <= maxBodySize) && !request.isEnded();
    }

    /**
     * @param length       the announced length, or {@link #ARRIVING}
     * @param onRequestEnd registers what must run if the request ends before its body has arrived
     */
    private void read(HttpServerRequest request, long length, Consumer<Runnable> onRequestEnd,
                      Consumer<Buffer> onBody, Runnable onTooLarge) {
        Body body = new Body(onRequestEnd, length);
        // An announced body was counted when its head came (ConnectionGuard); one not announced, by what has come.
        RequestDeadline arriving = length == ARRIVING ? RequestDeadline.of(request.connection()) : null;
        request.handler(chunk -> {
            if (body.failed) {
                return;
            }
            long received = body.length() + chunk.length();
            if (received > maxBodySize) {
                body.drop();
                body.release();
                onTooLarge.run();
                return;
            }
            long counted = arriving == null ? 0 : LargeBodies.countedWhileArriving(received, maxBodySize);
            if (counted > LargeBodies.countedWhileArriving(body.length(), maxBodySize) && !arriving.holdLargeBody(counted)) {
                body.drop(); // the caller is told to retry
                EdgeErrors.refuseAfterBody(request, LargeBodies.refusal(counted, false));
                return;
            }
            try {
                body.add(chunk);
            } catch (OutOfMemoryError full) { // no room for the body: refused, its rest dropped as it comes
                body.drop();
                EdgeErrors.refuseAfterBody(request, GatewayException.outOfMemory(full));
            }
        }).endHandler(ignored -> {
            body.release();
            if (!body.failed) {
                if (arriving != null) {
                    arriving.largeBodyArrived(body.length()); // counted as the most it might be until now
                }
                try {
                    onBody.accept(body.handOn());
                } catch (OutOfMemoryError full) { // before its reader answers for it: thrown here, it was answered by nothing
                    EdgeErrors.refuse(request, GatewayException.outOfMemory(full));
                }
            }
        }).exceptionHandler(cause -> {
            if (body.failed) {
                return;
            }
            OutOfMemoryError full = heapRanOut(cause); // gathering the body, say (Netty wraps it)
            if (cause instanceof StrictRequestDecoder.BrokenBodyException) {
                body.drop();
                EdgeErrors.refuseBrokenBody(request);
            } else if (full != null) {
                body.drop();
                EdgeErrors.refuse(request, GatewayException.outOfMemory(full));
            }
        });
        if (request.getHeader(HttpHeaders.EXPECT) != null) { // 100-continue: no other is taken
            request.response().writeContinue(); // the caller sends its body only now
        }
    }

    /** The {@link OutOfMemoryError} that {@code cause} is or wraps, or {@code null}. */
    private static OutOfMemoryError heapRanOut(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof OutOfMemoryError full) {
                return full;
            }
        }
        return null;
    }

    /**
     * Has a body whose chunked framing breaks answered even when no route reads it (a {@code GET}
     * with a body, a path nobody serves): 400 {@code invalid_request}, or the answer already written
     * flushed ahead of the close. Set before the router takes {@code request}; a route that reads
     * the body sets its own.
     */
    public static void answerBrokenBody(HttpServerRequest request) {
        request.exceptionHandler(cause -> {
            if (cause instanceof StrictRequestDecoder.BrokenBodyException) {
                EdgeErrors.refuseBrokenBody(request);
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
                reservation = announced > 0 ? allowance.reserve(announced) : null;
                if (reservation != null) {
                    onRequestEnd.accept(this::release); // a request that ends before its body has arrived
                }
                int capacity = reservation != null ? (int) announced : Math.max(MIN_GROWING_BUFFER, 2 * chunk.length());
                received = Buffer.buffer(capacity).appendBuffer(chunk);
            }
        }

        /**
         * The body, which this reader then forgets: its handlers stay on the request for as long as
         * the request lives (a stream's whole length), and must not keep the body alive with them.
         */
        Buffer handOn() {
            Buffer whole = received == null ? Buffer.buffer() : received;
            received = null;
            return whole;
        }

        /** The request is refused: nothing of its body is kept, and what still arrives is dropped. */
        void drop() {
            failed = true;
            received = null;
        }

        void release() {
            if (reservation != null) {
                reservation.release();
                reservation = null;
            }
        }
    }

    /**
     * The length of the body this reader reads for {@code request}: its {@code Content-Length},
     * {@link #ARRIVING} for a chunked one, -1 for one it leaves to the {@code BodyHandler} (HTTP/2, an
     * {@code Expect} other than {@code 100-continue}, no framing).
     */
    static long bodyLength(HttpServerRequest request) {
        if (request.version() == HttpVersion.HTTP_2
                || request.getHeader(HttpHeaders.EXPECT) != null && !expectsContinue(request)) {
            return -1;
        }
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null ? ARRIVING
                : parsedLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
    }

    /** The {@code Content-Length} of an HTTP/1.x request framed by it alone; -1 for any other request. */
    static long announcedLength(HttpServerRequest request) {
        return request.version() == HttpVersion.HTTP_2 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null ? -1
                : parsedLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
    }

    private static long parsedLength(String length) {
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether {@code request}'s caller waits for a {@code 100 Continue} before it sends its body. */
    static boolean expectsContinue(HttpServerRequest request) {
        String expect = request.getHeader(HttpHeaders.EXPECT);
        return expect != null && expect.equalsIgnoreCase("100-continue") && request.version() == HttpVersion.HTTP_1_1;
    }
}
