package io.agentfuse.gateway.http;

import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

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

    /** Closes {@code connection}'s channel now. */
    public static void now(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            base.channel().close();
        } else {
            connection.close();
        }
    }
}
