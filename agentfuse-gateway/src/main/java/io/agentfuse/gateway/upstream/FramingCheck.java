package io.agentfuse.gateway.upstream;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

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
 *   <li>each piece of a body is moved out of the read's pooled direct buffer into a heap array of
 *       its size, the copy Vert.x would make a step later (which it then skips): a paused answer's
 *       pieces that Vert.x keeps until it stops reading (eight or more per connection) would each
 *       hold on to a whole read buffer of direct memory. Seventy paused streams exhausted a
 *       32 MiB direct-memory cap that way ({@code StalledReadersTest}).</li>
 * </ul>
 * Informational heads ({@code 100 Continue}) are no answer. One per connection, right after the
 * decoder ({@code VertxHooks.checkClientFraming}); confined to its event loop.
 */
final class FramingCheck extends ChannelInboundHandlerAdapter {

    /** The head of the answer being read, whose end may be held. */
    private HttpResponse head;
    /** The end of an answer, held until its read is over. */
    private LastHttpContent heldEnd;

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
        if (message instanceof HttpContent content && content.decoderResult().isSuccess() && content.content().isDirect()) {
            message = onTheHeap(content);
        }
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
    }

    /** {@code content} with its bytes in a heap array of their size; the direct buffer is let go. */
    private static HttpContent onTheHeap(HttpContent content) {
        try {
            return content.replace(Unpooled.wrappedBuffer(ByteBufUtil.getBytes(content.content())));
        } finally {
            content.release();
        }
    }

    private void releaseHeldEnd(ChannelHandlerContext ctx) {
        LastHttpContent end = heldEnd;
        if (end != null) {
            heldEnd = null;
            ctx.fireChannelRead(end);
        }
    }
}
