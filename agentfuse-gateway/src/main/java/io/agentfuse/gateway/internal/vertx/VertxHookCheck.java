package io.agentfuse.gateway.internal.vertx;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.ext.web.Router;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Proves, before a gateway starts, that every hook of {@link VertxHooks} finds what it reaches
 * for in the Vert.x it runs on: a server on {@code 127.0.0.1} and a free port is sent one request
 * through a router, and on the way each hook is used as the gateway uses it (the connection's
 * channel, the request decoder replaced, the client's codec found, the router's body marked and
 * set, the buffers, the transport, the context's loop). A Vert.x whose internals moved fails the start with a
 * {@link MissingHookException} naming the hook, instead of a gateway that serves without it.
 *
 * <p>Takes a few milliseconds; the probe's server and client are closed whatever happens. Thread-safe.
 *
 * <pre>{@code
 * VertxHookCheck.verify(vertx).compose(checked -> deployTheGateway());
 * }</pre>
 */
public final class VertxHookCheck {

    private static final String PATH = "/agentfuse-hook-check";

    private VertxHookCheck() {
    }

    /** Completes when every hook works on {@code vertx}; fails with the first that does not. */
    public static Future<Void> verify(Vertx vertx) {
        try {
            VertxHooks.transportClass(vertx);
            VertxHooks.eventLoop(vertx.getOrCreateContext());
            if (!(Buffer.buffer() instanceof BufferInternal)) {
                throw new MissingHookException("the Netty buffer under a buffer", "a " + Buffer.buffer().getClass().getName()
                        + " is not a " + BufferInternal.class.getName());
            }
        } catch (MissingHookException missing) {
            return Future.failedFuture(missing);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(0);
        Router router = Router.router(vertx);
        router.route(PATH).handler(ctx -> {
            try {
                if (!(VertxHooks.channel(ctx.request().connection()).pipeline().get(VertxHooks.REQUEST_DECODER)
                        instanceof ServerRequestDecoder)) {
                    throw new MissingHookException("the server's request decoder", "it was not replaced");
                }
                if (!VertxHooks.claimBody(ctx)) {
                    throw new MissingHookException("a router's body bookkeeping", "the body was read already");
                }
                VertxHooks.setBody(ctx, Buffer.buffer("probe"));
                if (!"probe".equals(ctx.body().asString())) {
                    throw new MissingHookException("a router's body bookkeeping", "the body set is not the body read");
                }
            } catch (RuntimeException missing) {
                failure.compareAndSet(null, missing);
            }
            ctx.response().end();
        });
        HttpServer server = vertx.createHttpServer(options)
                .connectionHandler(connection -> {
                    try {
                        VertxHooks.replaceRequestDecoder(connection, () -> new ServerRequestDecoder(options) { });
                    } catch (RuntimeException missing) {
                        failure.compareAndSet(null, missing);
                    }
                })
                .requestHandler(router);
        HttpClient client = vertx.httpClientBuilder().withConnectHandler(connection -> {
            try {
                if (!VertxHooks.checkClientFraming(connection, ChannelInboundHandlerAdapter::new)) {
                    throw new MissingHookException("a client connection's HTTP/1.1 codec", "the check's connection is not HTTP/1.1");
                }
            } catch (RuntimeException missing) {
                failure.compareAndSet(null, missing);
            }
        }).build();
        return server.listen()
                .compose(listening -> client.request(HttpMethod.GET, listening.actualPort(), "127.0.0.1", PATH))
                .compose(request -> request.send().compose(HttpClientResponse::body))
                .transform(done -> {
                    Throwable missing = failure.get();
                    if (missing == null && done.failed()) {
                        missing = new MissingHookException("a server connection", "the check's request failed: "
                                + done.cause());
                    }
                    Future<Void> verdict = missing == null ? Future.succeededFuture() : Future.failedFuture(missing);
                    return Future.join(client.close(), server.close()).transform(closed -> verdict);
                });
    }

    /** The version of the Vert.x on the class path, as its jar names it. */
    static String runningVersion() {
        String version = Vertx.class.getPackage().getImplementationVersion();
        return version == null ? "(of unknown version)" : version;
    }
}
