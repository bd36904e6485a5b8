package io.agentfuse.gateway.server;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.internal.ConnectionTuning;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.netty.util.AttributeKey;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits client connections, shared by every server instance of a gateway: at most
 * {@code server.maxConnections} are open at once (fewer if the descriptor limit is lower, see
 * {@link FileDescriptors}) — one more is closed at once, so the gateway refuses fast and keeps
 * serving the others — and each admitted one gets its {@link RequestDeadline} and a
 * {@link StrictRequestDecoder}. A request with a large body is served only within the
 * {@link LargeBodies} budget, which its connection's deadline holds for it until it is answered.
 *
 * <p>Thread-safe: connections of every event loop pass through it.
 */
final class ConnectionGuard {

    private final Vertx vertx;
    private final ServerConfig.Limits limits;
    private final HttpServerOptions options;
    private final long maxBodySize;
    private final BodyAllowance bodies;
    private final LargeBodies largeBodies;
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
        this.largeBodies = LargeBodies.ofHeap(maxBodySize);
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

    /**
     * Called for every request before it is routed: whether it may be served. One whose large
     * body the {@link LargeBodies} budget has no room for is refused (429 {@code overloaded}, its
     * connection closed after the answer) once its body has been read and dropped: a caller still
     * sending the body of a request answered and closed early gets the connection reset, often
     * before it reads the answer. Bodies over {@code server.maxBodySize} (413), of HTTP/2 streams,
     * chunked ones and ones expecting {@code 100-continue} are not counted.
     */
    boolean onRequest(HttpServerRequest request) {
        RequestDeadline deadline = VertxHooks.channel(request.connection()).attr(DEADLINE).get();
        if (deadline == null) {
            return true;
        }
        deadline.onRequest(request);
        if (!LargeBodies.mayAnnounceLarge(request)) {
            return true; // most requests: one header read
        }
        long length = SizedBodyReader.knownLength(request);
        // A body over the limit is refused 413 by the body reader, never read: it takes nothing.
        LargeBodies.Ticket ticket = length > maxBodySize ? LargeBodies.Ticket.NONE : largeBodies.take(length);
        if (ticket == null) {
            GatewayException refusal = new GatewayException(GatewayError.OVERLOADED, "the gateway is reading as many "
                    + "large request bodies as its memory allows; retry in a moment (this one announces " + length
                    + " bytes)", Duration.ofSeconds(LargeBodies.RETRY_AFTER_SECONDS));
            request.handler(dropped -> { }).endHandler(read -> EdgeErrors.refuseRead(request, refusal));
            return false;
        }
        deadline.hold(ticket);
        return true;
    }

    private void strictFraming(HttpConnection connection) {
        VertxHooks.replaceRequestDecoder(connection, () -> new StrictRequestDecoder(options, maxBodySize, bodies));
    }
}
