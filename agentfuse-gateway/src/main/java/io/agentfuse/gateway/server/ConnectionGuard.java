package io.agentfuse.gateway.server;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.internal.ConnectionTuning;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.netty.util.AttributeKey;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits client connections, shared by every server instance of a gateway: at most
 * {@code server.maxConnections} are open at once (fewer if the descriptor limit is lower, see
 * {@link FileDescriptors}) — one more is closed at once, so the gateway refuses fast and keeps
 * serving the others — and each admitted one gets its {@link RequestDeadline} and a
 * {@link StrictRequestDecoder}.
 *
 * <p>Thread-safe: connections of every event loop pass through it.
 */
final class ConnectionGuard {

    private final Vertx vertx;
    private final ServerConfig.Limits limits;
    private final HttpServerOptions options;
    private final long maxBodySize;
    private final BodyAllowance bodies;
    private final int maxConnections;
    private final AtomicInteger open = new AtomicInteger();
    /** Each connection's deadlines, on its channel: found without a shared table on every request. */
    private static final AttributeKey<RequestDeadline> DEADLINE = AttributeKey.valueOf(RequestDeadline.class, "deadline");

    ConnectionGuard(Vertx vertx, ServerConfig.Limits limits, long maxBodySize, HttpServerOptions options,
                    BodyAllowance bodies) {
        this.vertx = vertx;
        this.bodies = bodies;
        this.limits = limits;
        this.maxBodySize = maxBodySize;
        this.options = options;
        FileDescriptors.prepare();
        this.maxConnections = FileDescriptors.connectionBudget(limits.maxConnections());
    }

    /** How many connections are admitted at most. */
    int maxConnections() {
        return maxConnections;
    }

    /** How many connections are open now. */
    int open() {
        return open.get();
    }

    /** The server's connection handler. */
    void accept(HttpConnection connection) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            connection.close();
            return;
        }
        RequestDeadline deadline = new RequestDeadline(vertx, connection, limits.headerTimeout(), limits.idleTimeout());
        VertxHooks.channel(connection).attr(DEADLINE).set(deadline);
        connection.closeHandler(v -> {
            open.decrementAndGet();
            deadline.onClose();
        });
        try {
            strictFraming(connection);
            ConnectionTuning.install(connection);
        } catch (RuntimeException missingHook) {
            connection.close(); // never served without its guards; Vert.x logs what was thrown
            throw missingHook;
        }
    }

    /** Called for every request before it is routed. */
    void onRequest(HttpServerRequest request) {
        RequestDeadline deadline = VertxHooks.channel(request.connection()).attr(DEADLINE).get();
        if (deadline != null) {
            deadline.onRequest(request);
        }
    }

    private void strictFraming(HttpConnection connection) {
        VertxHooks.replaceRequestDecoder(connection, () -> new StrictRequestDecoder(options, maxBodySize, bodies));
    }
}
