package io.agentfuse.bench.gateway;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.ContextInternal;

/**
 * Between {@link VertxFloorProxy} and {@link NettyFloorProxy}: Vert.x's HTTP server, but the
 * upstream leg on Netty's client codec, each Vert.x event loop with its own keep-alive upstream
 * connections. Beside the two it splits what Vert.x costs above Netty into its server side and its
 * client side — which half of an HTTP-layer rewrite would pay.
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.gateway.HybridFloorProxy PORT UPSTREAM_PORT
 * TARGET=hybrid-floor COMPARE_TARGET=vertx-floor agentfuse-bench/gateway/measure-cost.sh small 32
 * }</pre>
 *
 * <p>Listens on {@code 127.0.0.1} only; any failure is a 502 without a body. A benchmark
 * reference, not a product: no limits, no timeouts.
 */
public final class HybridFloorProxy {

    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");
    private static final AsciiString JSON = AsciiString.cached("application/json");

    private final Vertx vertx;
    private final NettyUpstreams upstreams;

    private HybridFloorProxy(Vertx vertx, NettyUpstreams upstreams) {
        this.vertx = vertx;
        this.upstreams = upstreams;
    }

    /** Proxies {@code 127.0.0.1:args[0]} to {@code 127.0.0.1:args[1]} until the JVM is stopped. */
    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        HybridFloorProxy proxy = new HybridFloorProxy(vertx,
                new NettyUpstreams(Integer.parseInt(args[1]), vertx.isNativeTransportEnabled()));
        int loops = Runtime.getRuntime().availableProcessors();
        vertx.deployVerticle(() -> new VerticleBase() {
            @Override
            public Future<?> start() {
                return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true))
                        .requestHandler(proxy::proxy).listen();
            }
        }, new DeploymentOptions().setInstances(loops)).await();
        System.out.println("listening on " + port + " (native transport: " + vertx.isNativeTransportEnabled() + ")");
    }

    private void proxy(HttpServerRequest request) {
        EventLoop loop = ((ContextInternal) vertx.getOrCreateContext()).nettyEventLoop();
        request.body().onSuccess(body -> {
            FullHttpRequest forwarded = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, request.uri(),
                    Unpooled.wrappedBuffer(body.getBytes()));
            forwarded.headers().set(HttpHeaderNames.HOST, NettyUpstreams.HOST).set(HttpHeaderNames.CONTENT_TYPE, JSON)
                    .set(HttpHeaderNames.CONTENT_LENGTH, forwarded.content().readableBytes());
            upstreams.send(loop, forwarded, upstream -> {
                if (upstream == null) {
                    request.response().setStatusCode(502).end();
                } else {
                    request.response().setStatusCode(upstream.status().code())
                            .putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
                            .end(Buffer.buffer(ByteBufUtil.getBytes(upstream.content())));
                }
            });
        }).onFailure(error -> request.response().setStatusCode(502).end());
    }
}
