package io.agentfuse.gateway.server;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.vertx.core.http.HttpConnection;

/**
 * Closes a caller's connection when a write to it fails, whatever wrote it: a complete answer or
 * one of its slices, a stream's event, an error, an MCP or admin answer. Vert.x 5 gives every write
 * of a response a future and fails only that future (a write with Netty's void promise already
 * closes the connection, through Vert.x's exception handler): a write that found no direct memory
 * for Netty's copy of it was lost without a sound, and the caller waited for the rest of a body
 * that never came on a connection that stayed open, or read a stream with an event missing. What
 * was lost cannot be written again in its place; a closed connection is the one answer a client
 * understands as cut.
 *
 * <p>One instance for all connections, at the head of each caller's pipeline ({@link #install}).
 */
@ChannelHandler.Sharable
final class FailedWriteClose extends ChannelOutboundHandlerAdapter {

    /** The handler's name in the pipeline. */
    static final String NAME = "agentfuseFailedWriteClose";

    private static final FailedWriteClose INSTANCE = new FailedWriteClose();

    private FailedWriteClose() {
    }

    /** Puts the handler on {@code connection}, once. */
    static void install(HttpConnection connection) {
        ChannelPipeline pipeline = VertxHooks.channel(connection).pipeline();
        if (pipeline.get(NAME) == null) {
            pipeline.addFirst(NAME, INSTANCE);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (!promise.isVoid()) {
            promise.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }
        ctx.write(message, promise);
    }
}
