package io.agentfuse.gateway.internal;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.http.HttpConnection;

/**
 * How the gateway sets up each of its TCP connections, to callers and to providers, for
 * throughput on a busy event loop: flushes consolidated, and buffers from Netty's pooled allocator
 * with its per-thread caches.
 *
 * <p><b>Consolidated flushes.</b> On loopback every write that reaches a peer asleep in
 * {@code epoll_wait} wakes it, and on a virtual machine waking an idle core is dear. A loop that
 * flushed each upstream request and each answer the moment it was written woke the provider and
 * the caller once per request: 1.32–1.36 context switches per small request over the whole
 * machine (nginx in the same set-up: 0.70); with flushes held for the loop's turn 0.94–1.03, and wrk
 * itself spent 9.2–9.7 µs per request instead of 11.6–11.8 (RESULTS.md history, runs 8–12). This is
 * Netty's {@link FlushConsolidationHandler} at the head of the pipeline, with
 * {@code consolidateWhenNoReadInProgress}: a flush while the connection is read waits for that read
 * to complete, any other for a task of the loop; after {@value #FLUSH_AFTER_HELD} held flushes, on a
 * close, or when the connection stops being writable, it flushes at once. A write is thus delayed by
 * microseconds, never by a timer.
 *
 * <p><b>Pooled buffers.</b> Vert.x gives its channels Netty's default allocator, the adaptive
 * one, whose shared "magazines" the event loops sometimes contend on: such a process then ran
 * every request about 30 % slower for its whole life. Measured as CPU per small request with
 * {@code measure-cost.sh small 32}, one process per run: with the adaptive allocator 7 processes
 * of 14 took 34–39 µs and the others 26–30 µs (a profile of a slow one: the allocator's share up
 * from 0.4 to 1.5 µs per request); with {@link PooledByteBufAllocator#DEFAULT}, whose caches are
 * per event-loop thread, five processes in a row took 23.8–28.0 µs.
 *
 * <pre>{@code
 * server.connectionHandler(ConnectionTuning::install);
 * }</pre>
 */
public final class ConnectionTuning {

    /** The name of the flush-consolidating handler in the pipeline. */
    static final String NAME = "agentfuseFlushConsolidation";

    /** Held flushes after which a connection is flushed at once (Netty's handler's default). */
    static final int FLUSH_AFTER_HELD = FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES;

    private ConnectionTuning() {
    }

    /** Tunes {@code connection}. */
    public static void install(HttpConnection connection) {
        install(VertxHooks.channel(connection));
    }

    /** Tunes a Netty channel as {@link #install(HttpConnection)} tunes a Vert.x connection's. */
    public static void install(Channel channel) {
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ChannelPipeline pipeline = channel.pipeline();
        if (pipeline.get(NAME) == null) {
            pipeline.addFirst(NAME, new FlushConsolidationHandler(FLUSH_AFTER_HELD, true));
        }
    }
}
