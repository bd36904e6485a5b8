package io.agentfuse.bench.gateway;

import io.netty.bootstrap.Bootstrap;
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
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The upstream half of the Netty-based floor proxies ({@link NettyFloorProxy}, {@link HybridFloorProxy}):
 * keep-alive connections to {@code 127.0.0.1:port} on Netty's client codec, each event loop with
 * its own, one request at a time on each. Used only from the event loops, so never locked.
 */
final class NettyUpstreams {

    static final String HOST = "127.0.0.1";
    static final int MAX_BODY = 16 * 1024 * 1024;

    private final int port;
    private final boolean epoll;
    /** Each event loop's idle upstream connections. */
    private final FastThreadLocal<ArrayDeque<Channel>> idle = new FastThreadLocal<>() {
        @Override
        protected ArrayDeque<Channel> initialValue() {
            return new ArrayDeque<>();
        }
    };

    NettyUpstreams(int port, boolean epoll) {
        this.port = port;
        this.epoll = epoll;
    }

    /**
     * Sends {@code forwarded} on an idle connection of {@code loop}, or a new one, and hands the
     * whole answer to {@code answer} on that loop ({@code null} when there is none: the upstream
     * could not be reached or closed first). The answer is released when {@code answer} returns.
     */
    void send(EventLoop loop, FullHttpRequest forwarded, Consumer<FullHttpResponse> answer) {
        Channel connection = idle.get().pollFirst();
        if (connection != null && connection.isActive()) {
            send(connection, forwarded, answer);
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
    }

    private ChannelFuture connect(EventLoop loop) {
        return new Bootstrap().group(loop).channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BODY),
                                new UpstreamSide());
                    }
                })
                .connect(HOST, port);
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
            idle.get().addFirst(upstream.channel());
            request.accept(answer);
        }

        @Override
        public void channelInactive(ChannelHandlerContext upstream) {
            idle.get().remove(upstream.channel());
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
