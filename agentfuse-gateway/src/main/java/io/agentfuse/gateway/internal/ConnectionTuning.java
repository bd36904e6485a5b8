package io.agentfuse.gateway.internal;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.vertx.core.http.HttpConnection;

/**
 * How the gateway sets up each of its TCP connections, to callers and to providers, for
 * throughput on a busy event loop: flushes batched per turn of the loop, and buffers from Netty's
 * pooled allocator with its per-thread caches.
 *
 * <p><b>Batched flushes.</b> On loopback every write that reaches a peer asleep in
 * {@code epoll_wait} wakes it, and on a virtual machine waking an idle core is dear. A loop that
 * flushed each upstream request and each answer the moment it was written woke the provider and
 * the caller once per request: 1.32–1.36 context switches per small request over the whole
 * machine (nginx in the same set-up: 0.70); with batched flushes 0.94–1.03, and wrk itself spent
 * 9.2–9.7 µs per request instead of 11.6–11.8 (three alternating pairs, wrk at 32 connections,
 * {@code ctxt} of {@code /proc/stat} over the requests served). This is {@link FlushBatching} at
 * the head of the pipeline: a write made while another connection is read (the provider's request
 * while the caller's is read, the answer while the provider's is) is flushed by one task per turn
 * of the loop, once it has handled every ready read; a write made while its own connection is read
 * is flushed when that read completes. After {@value FlushBatching#FLUSH_AFTER_HELD} held
 * flushes, on a close, or when the connection stops being writable, it flushes at once. A write
 * is thus delayed by microseconds, never by a timer.
 *
 * <p><b>Pooled buffers.</b> Vert.x gives its channels Netty's default allocator, the adaptive
 * one, whose shared "magazines" the event loops sometimes contend on: such a process then ran
 * every request about 30 % slower for its whole life. Measured as CPU per small request with
 * {@code measure-cost.sh small 32}, one process per run: with the adaptive allocator 7 processes
 * of 14 took 34–39 µs and the others 26–30 µs (a profile of a slow one: the allocator's share up
 * from 0.4 to 1.5 µs per request); with {@link PooledByteBufAllocator#DEFAULT}, whose caches are
 * per event-loop thread, five processes in a row took 23.8–28.0 µs. (The slow rounds the gateway
 * bench still saw after this were the host's phases, not slow processes: RESULTS.md, run 54.)
 *
 * <pre>{@code
 * server.connectionHandler(ConnectionTuning::install);
 * }</pre>
 */
public final class ConnectionTuning {

    /** The name of the flush-batching handler in the pipeline. */
    static final String NAME = "agentfuseFlushBatching";

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
            pipeline.addFirst(NAME, new FlushBatching());
        }
    }
}
