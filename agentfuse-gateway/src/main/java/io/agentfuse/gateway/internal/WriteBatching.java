package io.agentfuse.gateway.internal;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Flushes a connection's writes once per turn of its event loop instead of once per write, so
 * that a peer is woken once for what the loop wrote to it in that turn.
 *
 * <p>Why: on loopback every write that reaches a peer asleep in {@code epoll_wait} wakes it, and
 * on a virtual machine waking an idle core is dear. A loop that flushed each upstream request and
 * each answer the moment it was written woke the provider and the caller once per request:
 * 1.32–1.36 context switches per small request over the whole machine (nginx in the same set-up:
 * 0.70); with batched flushes 0.94–1.03, and wrk itself spent 9.2–9.7 µs per request instead of
 * 11.6–11.8 (three alternating pairs, wrk at 32 connections, {@code ctxt} of {@code /proc/stat}
 * over the requests served).
 *
 * <p>This is Netty's {@link FlushConsolidationHandler} at the head of the connection's pipeline,
 * consolidating also while the connection itself is not being read: a write made while another
 * connection is read (the provider's request while the caller's is read, the answer while the
 * provider's is) is flushed by a task that runs once the loop has handled every ready read; a
 * write made while its own connection is read is flushed when that read completes. After
 * {@value FlushConsolidationHandler#DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES} held flushes, on a close,
 * or when the connection stops being writable, it flushes at once. A write is thus delayed by
 * microseconds, never by a timer.
 *
 * <pre>{@code
 * server.connectionHandler(WriteBatching::install);
 * }</pre>
 */
public final class WriteBatching {

    /** The handler's name in the pipeline. */
    static final String NAME = "agentfuseWriteBatching";

    private WriteBatching() {
    }

    /** Batches {@code connection}'s flushes; a connection that is not a Vert.x TCP connection is left as it is. */
    public static void install(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            ChannelPipeline pipeline = base.channel().pipeline();
            if (pipeline.get(NAME) == null) {
                pipeline.addFirst(NAME, new FlushConsolidationHandler(
                        FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
            }
        }
    }
}
