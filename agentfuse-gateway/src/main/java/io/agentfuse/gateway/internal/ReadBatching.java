package io.agentfuse.gateway.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;

import java.util.ArrayList;
import java.util.List;

/**
 * Joins the body chunks that one read of a connection brings into one chunk before Vert.x
 * handles them: the read-side twin of the batched flushes in {@link ConnectionTuning}.
 *
 * <p>A provider streams each SSE event as its own HTTP chunk, and when the gateway is busy one read
 * of the socket brings many of them (the bench's 20-event stream mostly arrives in one or two).
 * Vert.x's client hands every chunk to the response on its own — a lock, a copy out of the pooled
 * buffer, a dispatch on the context, a call into the SSE parser — about a tenth of a stream's CPU
 * in a profile. Here the chunks of one read are gathered and passed on as one when the read is
 * complete, or earlier when anything else comes (a response head, the last chunk, an error, the
 * connection closing), so their order with everything else is kept and nothing waits longer than
 * the read that brought it. A lone chunk is passed on as it came; joined ones are copied once into
 * a {@link HeapBuffers} buffer of their size, which Vert.x takes without copying it again. Empty
 * chunks are dropped.
 *
 * <p>A joined chunk holds at most {@code maxBytes}, the most the HTTP decoder puts in one chunk
 * (and at most {@value #MAX_CHUNKS} chunks):
 * Vert.x bounds what a paused response queues by a count of chunks, not bytes, so chunks larger
 * than the decoder's would let a caller that stops reading make the gateway buffer far more of an
 * endless provider stream than before (seen: a test's heap exhausted by 70 stalled streams).
 * Chunks that failed to decode, and anything that is not an HTTP body chunk (a connection turned
 * into a raw socket, say), pass unchanged.
 *
 * <p>Not shareable: one instance per connection, used on its event loop only.
 *
 * <pre>{@code
 * channel.pipeline().addBefore("handler", ReadBatching.NAME, new ReadBatching(clientOptions.getMaxChunkSize()));
 * }</pre>
 */
public final class ReadBatching extends ChannelInboundHandlerAdapter {

    /** The name of this handler in a connection's pipeline. */
    public static final String NAME = "agentfuseReadBatching";

    /**
     * The most chunks joined into one: a provider sending tiny chunks (a byte each, say) would
     * otherwise have every connection keep a list of thousands for the rest of its life.
     */
    static final int MAX_CHUNKS = 64;

    /** The chunks of the current read, as they came, not yet passed on. */
    private final List<HttpContent> held = new ArrayList<>();
    /** Their bytes. */
    private int heldBytes;
    private final int maxBytes;

    /** @param maxBytes the most one joined chunk holds: the HTTP decoder's {@code maxChunkSize} */
    public ReadBatching(int maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, but was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpContent chunk && chunk.decoderResult().isSuccess()) {
            int length = chunk.content().readableBytes();
            boolean last = chunk instanceof LastHttpContent;
            if (length == 0 && !last) {
                chunk.release();
                return;
            }
            if (heldBytes + length > maxBytes || held.size() == MAX_CHUNKS) {
                passOn(ctx);
            }
            if (last) {
                end(ctx, (LastHttpContent) chunk);
            } else {
                held.add(chunk);
                heldBytes += length;
            }
            return;
        }
        passOn(ctx);
        ctx.fireChannelRead(message);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        passOn(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        passOn(ctx);
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        passOn(ctx);
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        passOn(ctx);
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        passOn(ctx);
    }

    /** The body's last chunk, with what this read held before it joined in front, as one last chunk. */
    private void end(ChannelHandlerContext ctx, LastHttpContent last) {
        if (held.isEmpty()) {
            ctx.fireChannelRead(last);
            return;
        }
        LastHttpContent whole = new DefaultLastHttpContent(joined(last.content()), last.trailingHeaders());
        last.release();
        ctx.fireChannelRead(whole);
    }

    /** Passes on what this read holds, as it came (one chunk) or joined (several). */
    private void passOn(ChannelHandlerContext ctx) {
        if (held.size() == 1) {
            HttpContent chunk = held.get(0);
            held.clear();
            heldBytes = 0;
            ctx.fireChannelRead(chunk);
        } else if (!held.isEmpty()) {
            ctx.fireChannelRead(new DefaultHttpContent(joined(Unpooled.EMPTY_BUFFER)));
        }
    }

    /** The held chunks and {@code tail} copied into one buffer of their size, the chunks released. */
    private ByteBuf joined(ByteBuf tail) {
        ByteBuf joined = HeapBuffers.ofCapacity(heldBytes + tail.readableBytes());
        for (HttpContent chunk : held) {
            joined.writeBytes(chunk.content(), chunk.content().readerIndex(), chunk.content().readableBytes());
            chunk.release();
        }
        joined.writeBytes(tail, tail.readerIndex(), tail.readableBytes());
        held.clear();
        heldBytes = 0;
        return joined;
    }
}
