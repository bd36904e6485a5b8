package io.agentfuse.gateway.http;

import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.vertx.core.http.HttpConnection;

/**
 * Closes a client connection at once, dropping whatever is still queued for it.
 *
 * <p>{@link HttpConnection#close()} first flushes what is queued, and a peer that has stopped
 * reading never lets that finish: the connection, its descriptor and its buffers would stay for
 * as long as the peer likes. Cutting off a caller that stopped reading, a slow event subscriber
 * or a connection past its deadline must not wait for the peer. Thread-safe.
 */
public final class Disconnect {

    private Disconnect() {
    }

    /**
     * Closes {@code connection}'s channel now. The close starts below Vert.x's own handlers (which
     * would turn it into a graceful shutdown that waits for the peer) and, with lingering off, the
     * kernel resets the connection instead of keeping it, and the process's descriptor, until a
     * peer that stopped reading takes what is still in the socket's send buffer. A connection
     * closed already is left as it is.
     */
    public static void now(HttpConnection connection) {
        Channel channel = VertxHooks.channel(connection);
        if (!channel.isOpen()) {
            return; // closed already: by its peer, say (a closed socket takes no options)
        }
        try {
            channel.config().setOption(ChannelOption.SO_LINGER, 0);
        } catch (ChannelException closing) {
            // closed meanwhile by its peer: the close below then does nothing
        }
        ChannelHandlerContext first = channel.pipeline().firstContext();
        if (first != null) {
            first.close(); // travels only towards the socket: no handler above it sees the close
        } else {
            channel.close();
        }
    }
}
