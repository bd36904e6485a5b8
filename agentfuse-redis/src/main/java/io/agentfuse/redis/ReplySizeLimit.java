package io.agentfuse.redis;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Closes a connection to Redis on which Redis sends an element larger than the store ever reads
 * ({@link RespScanner}), before the Redis client buffers it: a 30 MB message on the fleet's
 * channel, or a 30 MB value under a key the store reads, costs a reconnect and one warning that
 * names its size, not the heap. Sits in each connection's pipeline right after TLS (on the
 * decrypted bytes), before the client's decoder; bytes within the limits pass untouched.
 */
final class ReplySizeLimit extends ChannelInboundHandlerAdapter {

    /** The largest element the store accepts from Redis: records are a few hundred bytes, at most {@link SharedStateCodec#MAX_RECORD_CHARS}. */
    static final long MAX_ELEMENT_BYTES = 1L << 20;
    /** The most elements of one aggregate: the store's replies have a handful. */
    static final long MAX_ELEMENTS = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ReplySizeLimit.class);

    private final RespScanner scanner;
    private final WarningLimit warnings;
    private boolean refused;

    private ReplySizeLimit(long maxElements, WarningLimit warnings) {
        this.scanner = new RespScanner(MAX_ELEMENT_BYTES, maxElements);
        this.warnings = warnings;
    }

    /** Adds the shared store's limit ({@value #MAX_ELEMENTS} elements an aggregate) to every connection a Redis client with these resources makes. */
    static NettyCustomizer onEveryConnection() {
        return onEveryConnection(MAX_ELEMENTS);
    }

    /**
     * Adds a limit of {@code maxElements} elements an aggregate (and {@link #MAX_ELEMENT_BYTES} an
     * element) to every connection a Redis client with these resources makes: for a client whose
     * longest reply is longer than the store's (the budget ledger's list of windows). A Redis that
     * sends the same thing on every connection (a server that is no Redis, a value that stays) is
     * warned of once while it goes on, not on every reconnect ({@link WarningLimit}).
     */
    static NettyCustomizer onEveryConnection(long maxElements) {
        WarningLimit warnings = new WarningLimit();
        return new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                install(channel.pipeline(), new ReplySizeLimit(maxElements, warnings));
            }
        };
    }

    private static void install(ChannelPipeline pipeline, ReplySizeLimit limit) {
        String afterTls = null;
        for (Map.Entry<String, ChannelHandler> handler : pipeline) {
            if (handler.getValue() instanceof SslHandler) {
                afterTls = handler.getKey();
            }
        }
        if (afterTls == null) {
            pipeline.addFirst(limit);
        } else {
            pipeline.addAfter(afterTls, null, limit);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        if (refused) {
            release(message);
            return;
        }
        if (message instanceof ByteBuf bytes) {
            String why = scanner.scan(bytes);
            if (why != null) {
                refused = true;
                release(message);
                if (warnings.due(why)) {
                    LOG.warn("closed the connection to Redis at {}: it sent {}; nothing of it was read, and the store reconnects"
                            + " (said once while it goes on)", context.channel().remoteAddress(), why);
                } else {
                    LOG.debug("closed the connection to Redis at {} again: it sent {}", context.channel().remoteAddress(), why);
                }
                context.close();
                return;
            }
        }
        context.fireChannelRead(message);
    }

    private static void release(Object message) {
        if (message instanceof ByteBuf bytes) {
            bytes.release();
        }
    }
}
