package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.internal.HeapBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpClientOptions;
import java.util.ArrayDeque;

/**
 * Checks the framing of what an upstream answers on an HTTP/1.1 connection, between Netty's
 * response decoder and Vert.x, so that a connection is reused only after an answer that was read
 * whole and is alone:
 * <ul>
 *   <li>what the decoder failed to read (a malformed chunk size, an unreadable status line, a line
 *       too long) is marked a {@link NotHttpException} before Vert.x fails the connection with it
 *       (and closes it): the call then fails as a malformed answer, not as a broken connection;</li>
 *   <li>an answer's end is held until the read that brought it is over: if more follows in that
 *       read — an answer nobody asked for, since a connection carries one request at a time — the
 *       answer is marked {@code Connection: close} first, so that Vert.x closes the connection
 *       instead of lending it, and its stale bytes, to the next call;</li>
 *   <li>the pieces of a body are moved out of the read's pooled direct buffer into a heap buffer,
 *       the copy Vert.x would make a step later (which it then skips): a paused answer's pieces
 *       that Vert.x keeps until it stops reading (eight or more per connection) would each hold on
 *       to a whole read buffer of direct memory. Seventy paused streams exhausted a 32 MiB
 *       direct-memory cap that way ({@code StalledReadersTest});</li>
 *   <li>and the small pieces one read brings are handed on as one, up to {@value #MAX_PIECE_BYTES}
 *       bytes or {@value #MAX_KEPT_PIECES} pieces (the decoder's own largest piece, so that what Vert.x keeps of a paused answer stays
 *       as it was): the decoder gives a piece per chunk of a chunked answer, a streamed answer's
 *       chunk is an event or two, and each piece costs Vert.x's client a dispatch through its
 *       inbound queue and the answer's context. A stream of twenty events written at once arrived
 *       as twenty-one pieces. The bytes of an answer's end join them, and the end goes on
 *       without bytes of its own.</li>
 * </ul>
 * Informational heads ({@code 100 Continue}) are no answer. One per connection, right after the
 * decoder ({@code VertxHooks.checkClientFraming}); confined to its event loop.
 */
final class FramingCheck extends ChannelInboundHandlerAdapter {

    /** The most body bytes handed on as one piece: Netty's and Vert.x's default largest HTTP chunk. */
    static final int MAX_PIECE_BYTES = HttpClientOptions.DEFAULT_MAX_CHUNK_SIZE;
    /**
     * The most decoder pieces kept before their bytes are handed on: a provider that sends a byte per
     * chunk would otherwise have thousands of them kept in one read.
     */
    static final int MAX_KEPT_PIECES = 64;

    /** The head of the answer being read, whose end may be held. */
    private HttpResponse head;
    /** The end of an answer, held until its read is over. */
    private LastHttpContent heldEnd;
    /** The body bytes of the read so far, not yet handed on: the decoder's pieces, kept until then. */
    private final ArrayDeque<ByteBuf> kept = new ArrayDeque<>(4);
    private int keptLength;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpObject part && part.decoderResult().isFailure()
                && !(part.decoderResult().cause() instanceof NotHttpException)) {
            part.setDecoderResult(DecoderResult.failure(new NotHttpException(part.decoderResult().cause())));
        }
        if (heldEnd != null) {
            head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE); // Vert.x reads it at the end
            releaseHeldEnd(ctx);
        }
        if (message instanceof HttpContent content && content.decoderResult().isSuccess()) {
            message = gather(ctx, content);
            if (message == null) {
                return;
            }
        }
        handOnPieces(ctx);
        if (message instanceof HttpResponse response) {
            head = response;
        }
        if (message instanceof LastHttpContent end && end.decoderResult().isSuccess() && head != null
                && head.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
            heldEnd = end;
            return;
        }
        ctx.fireChannelRead(message);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        releaseHeldEnd(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseHeldEnd(ctx);
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (heldEnd != null) {
            ReferenceCountUtil.release(heldEnd);
            heldEnd = null;
        }
        kept.forEach(ByteBuf::release);
        kept.clear();
        keptLength = 0;
    }

    /**
     * Keeps the bytes of {@code piece} with those of the read so far, and lets the piece go; an
     * answer's end goes on without bytes of its own (they are handed on before it). Returns that end,
     * or {@code null} for any other piece.
     */
    private LastHttpContent gather(ChannelHandlerContext ctx, HttpContent piece) {
        ByteBuf bytes = piece.content();
        int length = bytes.readableBytes();
        if (length > 0) {
            if (keptLength + length > MAX_PIECE_BYTES || kept.size() == MAX_KEPT_PIECES) {
                handOnPieces(ctx);
            }
            kept.add(bytes.retain());
            keptLength += length;
        }
        LastHttpContent end = !(piece instanceof LastHttpContent last) ? null
                : length > 0 ? last.replace(Unpooled.EMPTY_BUFFER) : last;
        if (end != piece) {
            piece.release();
        }
        return end;
    }

    /**
     * Hands on the body bytes the read brought so far as one piece, copied to the heap at once in one
     * array of their size (copying each piece as it came into an array that grows allocated twice
     * their size in a stream), and lets the decoder's pieces go.
     */
    private void handOnPieces(ChannelHandlerContext ctx) {
        if (keptLength == 0) {
            return;
        }
        ByteBuf heap = HeapBuffers.ofCapacity(keptLength);
        for (ByteBuf piece; (piece = kept.poll()) != null; piece.release()) {
            heap.writeBytes(piece, piece.readerIndex(), piece.readableBytes());
        }
        keptLength = 0;
        ctx.fireChannelRead(new DefaultHttpContent(heap));
    }

    private void releaseHeldEnd(ChannelHandlerContext ctx) {
        handOnPieces(ctx);
        LastHttpContent end = heldEnd;
        if (end != null) {
            heldEnd = null;
            ctx.fireChannelRead(end);
        }
    }
}
