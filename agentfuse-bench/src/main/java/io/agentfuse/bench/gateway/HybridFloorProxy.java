package io.agentfuse.bench.gateway;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;
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

import java.util.ArrayDeque;
import java.util.function.Consumer;

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
    private static final int MAX_BODY = 16 * 1024 * 1024;
    private static final String UPSTREAM_HOST = "127.0.0.1";

    private final Vertx vertx;
    private final int upstreamPort;
    /** Each event loop's idle upstream connections: used only from that loop, so never locked. */
    private final FastThreadLocal<ArrayDeque<Channel>> idleUpstreams = new FastThreadLocal<>() {
        @Override
        protected ArrayDeque<Channel> initialValue() {
            return new ArrayDeque<>();
        }
    };

    private HybridFloorProxy(Vertx vertx, int upstreamPort) {
        this.vertx = vertx;
        this.upstreamPort = upstreamPort;
    }

    /** Proxies {@code 127.0.0.1:args[0]} to {@code 127.0.0.1:args[1]} until the JVM is stopped. */
    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        HybridFloorProxy proxy = new HybridFloorProxy(vertx, Integer.parseInt(args[1]));
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
            forwarded.headers().set(HttpHeaderNames.HOST, UPSTREAM_HOST).set(HttpHeaderNames.CONTENT_TYPE, JSON)
                    .set(HttpHeaderNames.CONTENT_LENGTH, forwarded.content().readableBytes());
            Consumer<FullHttpResponse> answer = upstream -> {
                if (upstream == null) {
                    request.response().setStatusCode(502).end();
                } else {
                    request.response().setStatusCode(upstream.status().code())
                            .putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
                            .end(Buffer.buffer(ByteBufUtil.getBytes(upstream.content())));
                }
            };
            Channel idle = idleUpstreams.get().pollFirst();
            if (idle != null && idle.isActive()) {
                send(idle, forwarded, answer);
                return;
            }
            connect(loop).addListener((ChannelFutureListener) connected -> {
                if (connected.isSuccess()) {
                    send(connected.channel(), forwarded, answer);
                } else {
                    forwarded.release();
                    answer.accept(null);
                }
            });
        }).onFailure(error -> request.response().setStatusCode(502).end());
    }

    private ChannelFuture connect(EventLoop loop) {
        return new Bootstrap().group(loop)
                .channel(vertx.isNativeTransportEnabled() ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BODY),
                                new UpstreamSide());
                    }
                })
                .connect(UPSTREAM_HOST, upstreamPort);
    }

    private static void send(Channel upstream, FullHttpRequest forwarded, Consumer<FullHttpResponse> answer) {
        upstream.pipeline().get(UpstreamSide.class).waiting = answer;
        upstream.writeAndFlush(forwarded).addListener((ChannelFutureListener) written -> {
            if (!written.isSuccess()) {
                upstream.close();
            }
        });
    }

    /** One upstream connection: its answer goes to the request waiting for it, then it is idle again. */
    private final class UpstreamSide extends SimpleChannelInboundHandler<FullHttpResponse> {

        Consumer<FullHttpResponse> waiting;

        @Override
        protected void channelRead0(ChannelHandlerContext upstream, FullHttpResponse answer) {
            Consumer<FullHttpResponse> request = waiting;
            waiting = null;
            idleUpstreams.get().addFirst(upstream.channel());
            request.accept(answer);
        }

        @Override
        public void channelInactive(ChannelHandlerContext upstream) {
            idleUpstreams.get().remove(upstream.channel());
            if (waiting != null) {
                waiting.accept(null);
                waiting = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext upstream, Throwable cause) {
            upstream.close();
        }
    }
}
