package io.agentfuse.gateway.server;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.internal.ConnectionTuning;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

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
        RequestDeadline deadline = new RequestDeadline(vertx, connection, limits.headerTimeout(), limits.idleTimeout(),
                largeBodies);
        connection.closeHandler(v -> {
            open.decrementAndGet();
            deadline.onClose();
        });
        try {
            strictFraming(connection);
            ConnectionTuning.install(connection);
            FailedWriteClose.install(connection);
        } catch (RuntimeException missingHook) {
            connection.close(); // never served without its guards; Vert.x logs what was thrown
            throw missingHook;
        }
    }

    /**
     * Called for every request before it is routed: whether it may be served. One whose announced
     * large body the {@link LargeBodies} budget has no room for is refused (429 {@code overloaded},
     * its connection closed after the answer): at once when its caller waits for a
     * {@code 100 Continue} before sending the body, else once the body has been read and dropped — a
     * caller still sending the body of a request answered and closed early gets the connection
     * reset, often before it reads the answer. A chunked body is counted by its reader
     * ({@link SizedBodyReader}) as it arrives; bodies over
     * {@code server.maxBodySize} (413) and of HTTP/2 streams are not counted.
     */
    boolean onRequest(HttpServerRequest request) {
        RequestDeadline deadline = RequestDeadline.of(request.connection());
        if (deadline == null) {
            return true;
        }
        deadline.onRequest(request);
        if (!LargeBodies.mayAnnounceCounted(request)) {
            return true; // most requests: one header read
        }
        long length = SizedBodyReader.announcedLength(request);
        // A body over the limit is refused 413 by the body reader, never read: it takes nothing.
        if (length > maxBodySize || deadline.holdLargeBody(length)) {
            return true;
        }
        GatewayException refusal = LargeBodies.refusal(length, true);
        if (SizedBodyReader.expectsContinue(request)) {
            request.handler(dropped -> { }); // sent anyway, without waiting: not kept
            EdgeErrors.refuseRead(request, refusal);
        } else {
            EdgeErrors.refuseAfterBody(request, refusal);
        }
        return false;
    }

    private void strictFraming(HttpConnection connection) {
        VertxHooks.replaceRequestDecoder(connection, () -> new StrictRequestDecoder(options, maxBodySize, bodies));
    }
}
