package io.agentfuse.bench.gateway;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;

/**
 * The floor under a proxy built on Netty alone: the least a chat proxy does — read the whole
 * body, send it to the upstream on a pooled keep-alive connection of the same event loop, read the
 * whole answer, send it back — with one event loop per core and the epoll transport where it
 * loads. Beside {@link VertxFloorProxy} it shows what Vert.x's HTTP layer costs above Netty's
 * codecs; beside nginx, what the JVM and Netty cost.
 *
 * <pre>{@code
 * java -cp agentfuse-bench/target/benchmarks.jar io.agentfuse.bench.gateway.NettyFloorProxy PORT UPSTREAM_PORT
 * TARGET=netty-floor agentfuse-bench/gateway/measure-cost.sh small 32
 * }</pre>
 *
 * <p>Listens on {@code 127.0.0.1} only; an upstream that fails or closes costs its request a 502
 * and its connection. A benchmark reference, not a product: no limits, no timeouts.
 */
public final class NettyFloorProxy {

    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");

    private final NettyUpstreams upstreams;

    private NettyFloorProxy(NettyUpstreams upstreams) {
        this.upstreams = upstreams;
    }

    /** Proxies {@code 127.0.0.1:args[0]} to {@code 127.0.0.1:args[1]} until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        boolean epoll = Epoll.isAvailable();
        NettyFloorProxy proxy = new NettyFloorProxy(new NettyUpstreams(Integer.parseInt(args[1]), epoll));
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(), io);
        Class<? extends ServerChannel> serverChannel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        new ServerBootstrap().group(loops).channel(serverChannel)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(NettyUpstreams.MAX_BODY),
                                proxy.new ClientSide());
                    }
                })
                .bind("127.0.0.1", port).sync();
        System.out.println("listening on " + port + " (epoll transport: " + epoll + ")");
    }

    /** One client connection: each whole request goes upstream, its answer comes back. */
    private final class ClientSide extends SimpleChannelInboundHandler<FullHttpRequest> {

        @Override
        protected void channelRead0(ChannelHandlerContext client, FullHttpRequest request) {
            FullHttpRequest forwarded = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, request.uri(),
                    request.content().retain());
            forwarded.headers().set(HttpHeaderNames.HOST, NettyUpstreams.HOST)
                    .set(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON)
                    .set(HttpHeaderNames.CONTENT_LENGTH, forwarded.content().readableBytes());
            upstreams.send(client.channel().eventLoop(), forwarded, answer -> {
                if (answer == null) {
                    badGateway(client);
                    return;
                }
                FullHttpResponse relayed = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, answer.status(),
                        answer.content().retain());
                relayed.headers().set(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON)
                        .set(HttpHeaderNames.CONTENT_LENGTH, relayed.content().readableBytes());
                client.writeAndFlush(relayed);
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext client, Throwable cause) {
            client.close();
        }
    }

    private static void badGateway(ChannelHandlerContext client) {
        FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY);
        answer.headers().set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        client.writeAndFlush(answer);
    }
}
