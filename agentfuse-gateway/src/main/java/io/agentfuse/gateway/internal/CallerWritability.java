package io.agentfuse.gateway.internal;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;

/**
 * Back-pressure by bytes for what the gateway relays to a caller: whether the caller's connection
 * takes more now (Netty's write buffer is under its high-water mark, 64 KB), and a task run once it
 * does again (under the low-water mark, 32 KB).
 *
 * <p>Vert.x's own signal, {@code writeQueueFull()} and its drain handler, counts messages: it turns
 * only once sixteen writes wait behind the 64 KB Netty holds, whatever their size. A stream relays
 * the events of each provider read as one write of up to 32 KB and more, so a caller that stopped
 * reading held about half a megabyte of its stream in the heap before the provider was paused.
 * Judged by this signal, it holds Netty's 64 KB and the write that crossed it.
 *
 * <p>The watch is a handler at the head of the connection's pipeline, added on first use; it lets
 * Vert.x see the change first (Vert.x writes out what it queued), then runs the task. Confined to
 * the connection's event loop, which is where a request's handlers run.
 *
 * <p>A relay asks both signals, bytes and Vert.x's messages, through {@link #takesNoMore} and
 * {@link #whenItTakesMore(HttpConnection, HttpServerResponse, Runnable)}: the one place where
 * "the caller takes no more" and "it takes more again" are decided.
 *
 * <pre>{@code
 * response.write(chunk);
 * if (CallerWritability.takesNoMore(connection, response)) {
 *     provider.pause();
 *     CallerWritability.whenItTakesMore(connection, response, provider::resume);
 * }
 * }</pre>
 */
public final class CallerWritability extends ChannelInboundHandlerAdapter {

    /** The name of the watch in the pipeline. */
    static final String NAME = "agentfuseWritability";

    /** Runs once the channel is writable again; {@code null} when nothing waits. */
    private Runnable waiting;

    private CallerWritability() {
    }

    /** Whether {@code connection} takes more writes now without holding more than its high-water mark. */
    public static boolean takesMore(HttpConnection connection) {
        return VertxHooks.channel(connection).isWritable();
    }

    /**
     * Whether the caller on {@code connection}, answered through {@code response}, takes no more
     * writes now: its write buffer is over its high-water mark, or Vert.x's queue of writes is full.
     */
    public static boolean takesNoMore(HttpConnection connection, HttpServerResponse response) {
        return !takesMore(connection) || response.writeQueueFull();
    }

    /**
     * How much of what was written to {@code response} has left the gateway for the caller on
     * {@code connection}: written, less what still waits in Netty's buffer. It grows while the caller
     * reads, however slowly, and never while it does not: more written meanwhile waits whole, with its
     * framing (a chunk's size line, counted in the buffer and not in what was written), so it shrinks.
     */
    public static long bytesTaken(HttpConnection connection, HttpServerResponse response) {
        ChannelOutboundBuffer waiting = VertxHooks.channel(connection).unsafe().outboundBuffer();
        return response.bytesWritten() - (waiting == null ? 0 : waiting.totalPendingWriteBytes());
    }

    /**
     * Runs {@code resume} once the caller on {@code connection} takes more again, by either signal:
     * its write buffer fell under its low-water mark, or Vert.x's queue of {@code response} drained
     * (its drain handler, which this sets). It may run once for each; a relay's resume does nothing
     * the second time. Call on the connection's event loop, where {@code resume} runs too.
     */
    public static void whenItTakesMore(HttpConnection connection, HttpServerResponse response, Runnable resume) {
        response.drainHandler(drained -> resume.run());
        whenItTakesMore(connection, resume);
    }

    /**
     * Runs {@code task} once {@code connection} takes more writes: at once if it does now, else when
     * its write buffer has fallen under its low-water mark. Replaces a task that was waiting; a
     * connection that closes first never runs it. Call on the connection's event loop.
     */
    public static void whenItTakesMore(HttpConnection connection, Runnable task) {
        Channel channel = VertxHooks.channel(connection);
        if (channel.isWritable()) {
            task.run();
            return;
        }
        CallerWritability watch = (CallerWritability) channel.pipeline().get(NAME);
        if (watch == null) {
            watch = new CallerWritability();
            channel.pipeline().addFirst(NAME, watch);
        }
        watch.waiting = task;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.fireChannelWritabilityChanged();
        Runnable task = waiting;
        if (task != null && ctx.channel().isWritable()) {
            waiting = null;
            task.run();
        }
    }
}
