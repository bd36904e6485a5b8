package io.agentfuse.gateway.server;

import io.agentfuse.gateway.internal.HeapBuffers;
import io.agentfuse.gateway.internal.vertx.ServerRequestDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpServerOptions;

import java.util.List;

/**
 * Vert.x's HTTP/1.x request decoder, except that a request with both {@code Content-Length} and
 * {@code Transfer-Encoding} is refused, as RFC 9112 §6.1 asks of a server that does not forward
 * it: Netty would drop the length and read the body as chunked, so that what follows the last
 * chunk is served as a second request (request smuggling behind a proxy that trusts the length).
 * The request is marked failed and {@link EdgeErrors#invalid} answers 400 and closes the connection.
 * A body whose chunked framing breaks is marked a {@link BrokenBodyException}, which the body's
 * reader answers 400 before Vert.x closes the connection ({@link EdgeErrors#refuseBrokenBody}).
 *
 * <p>A long body framed by its {@code Content-Length} alone (at least {@value #GATHER_FROM_BYTES}
 * bytes, at most {@value #GATHER_UP_TO_BYTES} and the server's body limit, nothing expected) is
 * gathered here into one buffer of its size and passed on as one piece: Vert.x would copy every
 * piece (up to one read's worth, see {@code GatewayVerticle}) out of Netty's pooled buffers into a
 * buffer of its own, and {@link SizedBodyReader} copy them all once more into the body. One copy
 * is left, and {@code SizedBodyReader} takes the piece as the body. The buffer is made when the
 * first byte of the body comes, not when the head announces it, and only within the server's
 * {@link BodyAllowance}: this runs before the request is admitted, so a peer that only announces a
 * length costs nothing, and peers that send a byte each can make the gateway hold no more than the
 * allowance (beyond it, and for bodies over {@value #GATHER_UP_TO_BYTES} bytes, a body flows in
 * pieces, as before).
 *
 * <p>One per connection, like any Netty decoder; installed by {@link ConnectionGuard}.
 */
final class StrictRequestDecoder extends ServerRequestDecoder {

    /** Bodies from this size on are gathered; a shorter one mostly comes in one piece anyway. */
    static final int GATHER_FROM_BYTES = 16 * 1024;
    /** Longer bodies flow in pieces: what one sent byte may make the gateway hold before admission. */
    static final int GATHER_UP_TO_BYTES = 1024 * 1024;

    private final long maxBodySize;
    private final BodyAllowance allowance;
    private boolean refused;
    private ByteBuf gathered;
    private BodyAllowance.Reservation reservation;
    private int gatheredLength = -1;

    /**
     * @param maxBodySize {@code server.maxBodySize}: a longer body is left to the body handler, which refuses it
     * @param allowance   what bodies not yet arrived may hold, over every connection of the server
     */
    StrictRequestDecoder(HttpServerOptions options, long maxBodySize, BodyAllowance allowance) {
        super(options);
        this.maxBodySize = maxBodySize;
        this.allowance = allowance;
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        super.handleTransferEncodingChunkedWithContentLength(message);
        message.setDecoderResult(DecoderResult.failure(new AmbiguousFramingException()));
        refused = true;
    }

    /** After a refused request nothing more is read from the connection: what follows may be smuggled. */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (refused) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        int from = out.size();
        super.decode(ctx, buffer, out);
        gather(out, from);
    }

    // Turns the pieces of a gathered body among out[from..] into one last piece, in place; marks a broken one.
    private void gather(List<Object> out, int from) {
        for (int i = from; i < out.size(); i++) {
            Object message = out.get(i);
            if (message instanceof HttpContent content && !(message instanceof HttpMessage) // a head that failed is no body
                    && content.decoderResult().isFailure() && !(content.decoderResult().cause() instanceof BrokenBodyException)) {
                content.setDecoderResult(DecoderResult.failure(new BrokenBodyException(content.decoderResult().cause())));
            }
            if (message instanceof HttpRequest request) {
                stopGathering();
                gatheredLength = gatheredLength(request);
            } else if (gatheredLength >= 0 && message instanceof HttpContent content && content.decoderResult().isSuccess()) {
                if (gathered == null) {
                    reservation = allowance.reserve(gatheredLength);
                    if (reservation == null) {
                        gatheredLength = -1; // no room: this body flows in pieces
                        continue;
                    }
                    gathered = HeapBuffers.ofCapacity(gatheredLength);
                }
                gathered.writeBytes(content.content());
                content.release();
                if (content instanceof LastHttpContent last) {
                    out.set(i, new DefaultLastHttpContent(gathered, last.trailingHeaders()));
                    stopGathering();
                } else {
                    out.remove(i--);
                }
            } else if (gatheredLength >= 0 && message instanceof HttpContent) {
                // A piece that failed to decode: what was gathered goes first, as it came.
                if (gathered != null) {
                    out.add(i++, new DefaultHttpContent(gathered));
                }
                stopGathering();
            }
        }
    }

    // The body is handed on, or will not be gathered: the buffer is no longer this decoder's to hold.
    private void stopGathering() {
        gathered = null; // heap memory: nothing to release, only to let go
        gatheredLength = -1;
        if (reservation != null) {
            reservation.release();
            reservation = null;
        }
    }

    // The Content-Length of a request framed by it alone, expecting nothing, within the limits; else -1.
    private int gatheredLength(HttpRequest request) {
        HttpHeaders headers = request.headers();
        if (!request.decoderResult().isSuccess() || headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                || headers.contains(HttpHeaderNames.EXPECT)) {
            return -1;
        }
        String value = headers.get(HttpHeaderNames.CONTENT_LENGTH);
        long length;
        try {
            length = value == null ? -1 : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
        return length >= GATHER_FROM_BYTES && length <= Math.min(maxBodySize, GATHER_UP_TO_BYTES) ? (int) length : -1;
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        stopGathering();
        super.handlerRemoved0(ctx);
    }

    /**
     * Why a request's body could not be read on: its chunked framing broke (a chunk size that is no
     * number, a chunk without its line end). Nothing after it can be read as HTTP. The codec's own
     * words are kept as the cause only: they may quote the peer's bytes.
     */
    static final class BrokenBodyException extends IllegalArgumentException {
        BrokenBodyException(Throwable cause) {
            super("the request body's chunked framing is broken", cause);
        }
    }

    /** Why a request with both framings is refused. */
    static final class AmbiguousFramingException extends IllegalArgumentException {
        AmbiguousFramingException() {
            super("the request has both Content-Length and Transfer-Encoding (RFC 9112 section 6.1): refused");
        }
    }
}
