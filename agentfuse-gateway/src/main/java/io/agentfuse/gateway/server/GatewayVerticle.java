package io.agentfuse.gateway.server;

import io.agentfuse.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One HTTP server of the gateway, on the event loop of its deployment; a gateway deploys
 * {@code server.eventLoops} of them on one port, which Vert.x balances connections across. They
 * share everything but their request handler (and its router): guards, breakers, pipeline and the {@link ConnectionGuard}.
 *
 * <p>Each request passes the connection deadlines and the {@link RequestGate} before it is routed.
 */
public final class GatewayVerticle extends VerticleBase {

    /** What every instance shares. */
    public static final class Shared {
        /** The longest piece of a request body the decoder passes on: the most Netty reads at once by default. */
        static final int MAX_BODY_PIECE_BYTES = 64 * 1024;

        private final ServerConfig server;
        private final String host;
        private final HttpServerOptions options;
        private final RequestGate gate;
        private final ConnectionGuard connections;
        private final Readiness readiness;
        private final Function<Vertx, Handler<HttpServerRequest>> routes;

        /**
         * @param vertx  the Vert.x instance the servers run on
         * @param server the {@code server:} section in force at start (limits are not reloaded)
         * @param host   the bind address
         * @param bodies what request bodies not yet arrived may hold, over every instance
         * @param readiness whether the gateway is draining (responses then close their connection)
         * @param routes builds the handler (one per instance) serving the gateway's endpoints
         */
        public Shared(Vertx vertx, ServerConfig server, String host, BodyAllowance bodies, Readiness readiness,
                      Function<Vertx, Handler<HttpServerRequest>> routes) {
            this.server = server;
            this.host = host;
            this.options = options();
            this.gate = new RequestGate(server, host);
            this.connections = new ConnectionGuard(vertx, server.limits(), server.maxBodySize(), options, bodies);
            this.readiness = readiness;
            this.routes = routes;
        }

        /** How many client connections are open now, over every instance. */
        public int openConnections() {
            return connections.open();
        }

        /**
         * No cleartext HTTP/2 upgrade. No WebSocket compression: the gateway serves no WebSockets,
         * and with it on Vert.x puts an extension handler in every connection's pipeline that looks
         * at every request and response. No Vert.x idle timeout: it would also cut a request that is
         * waiting for a slow provider; {@link RequestDeadline} applies {@code idleTimeout} between requests.
         * A request body comes in pieces of up to {@value #MAX_BODY_PIECE_BYTES} bytes, as much as one
         * read brings, not Vert.x's 8 KB: a 150 KB conversation in 19 pieces, each a slice of the read
         * to make, gather and free, cost ~1.8 µs more per request ({@code RequestBodyPiecesBench}, PERFORMANCE.md).
         */
        private static HttpServerOptions options() {
            return new HttpServerOptions().setMaxChunkSize(MAX_BODY_PIECE_BYTES).setHttp2ClearTextEnabled(false)
                    .setPerMessageWebSocketCompressionSupported(false).setPerFrameWebSocketCompressionSupported(false);
        }
    }

    private final Shared shared;
    private final int port;
    private HttpServer server;

    /** An instance listening on {@code port} of {@code shared}'s host ({@code 0}: any free port). */
    public GatewayVerticle(Shared shared, int port) {
        this.shared = shared;
        this.port = port;
    }

    @Override
    public Future<?> start() {
        Handler<HttpServerRequest> endpoints = shared.routes.apply(vertx);
        server = vertx.createHttpServer(new HttpServerOptions(shared.options).setHost(shared.host).setPort(port))
                .connectionHandler(shared.connections::accept)
                .invalidRequestHandler(request -> EdgeErrors.invalid(request, shared.options))
                .requestHandler(request -> {
                    if (!shared.connections.onRequest(request)) {
                        return; // refused already
                    }
                    if (shared.readiness.isDraining()) {
                        // The client takes its next request elsewhere, not to a listener about to close.
                        request.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
                    }
                    if (shared.gate.admit(request)) {
                        endpoints.handle(request);
                    }
                });
        return server.listen();
    }

    /**
     * Stops listening and closes each connection once its response in flight has been sent (at
     * once when it has none); after {@code timeout}, closes the connections still open.
     */
    public Future<Void> shutdown(Duration timeout) {
        return server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The port this instance listens on. */
    public int actualPort() {
        return server.actualPort();
    }
}
