package io.agentfuse.gateway.upstream;

import io.agentfuse.gateway.internal.ConnectionTuning;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Vertx;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Keep-alive HTTP/1.1 connections to providers, for complete calls and streams alike: a call
 * writes its request's bytes ({@link CompleteCall}, {@link StreamingCall}; the head encoded once per
 * provider by {@link ProviderRequests}) and Netty's response decoder reads the answer; a pool per
 * event loop and provider address, so that a call, its connection and its answer stay on the
 * caller's loop. Vert.x's client did the same work through a request object, a stream, a response
 * object and a future per step; on Netty's codec a small request cost the gateway ~2.8 µs less, a
 * tenth of it (RESULTS.md, "Run 50"). A stream's back-pressure is the connection's auto-read,
 * turned off while its caller cannot keep up.
 *
 * <p>What the pool keeps as Vert.x's client kept it: at most {@code maxConnectionsPerHost}
 * connections per address and loop, calls beyond them waiting in order for one to come back; a
 * connection is reused only after an answer read whole that did not ask to close it, and closed
 * after {@link #IDLE} without use. Names are resolved by Vert.x's resolver (never on the loop by
 * the JDK), connections made on Vert.x's transport (epoll where it loads), within the connect
 * timeout; {@code https} providers over TLS with the JVM's trust store, SNI and host name
 * verification. Every connection is tuned as the gateway's others ({@link ConnectionTuning}).
 *
 * <p>Thread-safe: each pool is confined to its loop; {@link #close()} may be called from anywhere.
 */
final class ProviderConnections {

    /** How long a connection may sit unused in a pool (Vert.x's client's keep-alive timeout). */
    static final Duration IDLE = Duration.ofSeconds(60);
    /** The limits of Vert.x's client, kept: the status line, the head, one body chunk. */
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEAD = 8192;
    /** Each connection's {@link Answers}, found without walking its pipeline. */
    private static final AttributeKey<Answers> ANSWERS = AttributeKey.valueOf(ProviderConnections.class, "answers");

    /** One provider address. */
    record Address(String host, int port, boolean ssl) {
    }

    /** Who waits for a connection; called on the pool's loop. */
    interface Lease {
        /** The connection, now this lease's until it gives it back or closes it. */
        void granted(Channel connection);

        /** No connection could be made. */
        void failed(Throwable why);

        /** Whether the lease no longer wants a connection (its call ended while it waited). */
        boolean abandoned();
    }

    /** What a connection's answer goes to while a call has it; called on its loop. */
    interface Receiver {
        void received(HttpObject part);

        /** The connection failed ({@code cause}) or closed ({@code null}) before the answer ended. */
        void broken(Throwable cause);
    }

    private final Vertx vertx;
    private final long idleNanos;
    private final int maxConnections;
    private final int connectTimeoutMillis;
    private final int maxChunkSize;
    private final FastThreadLocal<Map<Address, Pool>> pools = new FastThreadLocal<>() {
        @Override
        protected Map<Address, Pool> initialValue() {
            return new HashMap<>();
        }
    };
    private final Queue<Pool> all = new ConcurrentLinkedQueue<>();
    private volatile SslContext tls;
    private volatile boolean closed;

    ProviderConnections(Vertx vertx, int maxConnections, Duration connectTimeout, int maxChunkSize) {
        this(vertx, maxConnections, connectTimeout, maxChunkSize, IDLE);
    }

    /** @param idle how long a connection may sit unused in a pool (tests shorten {@link #IDLE}) */
    ProviderConnections(Vertx vertx, int maxConnections, Duration connectTimeout, int maxChunkSize, Duration idle) {
        this.vertx = vertx;
        this.idleNanos = idle.toNanos();
        this.maxConnections = maxConnections;
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis());
        this.maxChunkSize = maxChunkSize;
    }

    /** The pool of {@code address} on {@code loop}; must be called on that loop. */
    Pool pool(EventLoop loop, Address address) {
        Map<Address, Pool> ofLoop = pools.get();
        Pool pool = ofLoop.get(address);
        if (pool == null) {
            pool = new Pool(loop, address);
            ofLoop.put(address, pool);
            all.add(pool);
            if (closed) {
                pool.close();
            }
        }
        return pool;
    }

    /** Closes every connection; a later lease fails. */
    void close() {
        closed = true;
        for (Pool pool : all) {
            pool.loop.execute(pool::close);
        }
    }

    /** The receiver a connection's answer goes to while a call has it ({@code null} to let go of it). */
    static void receiver(Channel connection, Receiver receiver) {
        connection.attr(ANSWERS).get().receiver = receiver;
    }

    /** Closes a connection whose call ended before its answer did: nothing more of it is wanted. */
    static void abandon(Channel connection) {
        receiver(connection, null);
        connection.close();
    }

    private SslContext tls() {
        SslContext context = tls;
        if (context == null) {
            try {
                context = SslContextBuilder.forClient().build();
            } catch (SSLException e) {
                throw new UncheckedIOException(e);
            }
            tls = context;
        }
        return context;
    }

    /** The connections to one address on one loop; confined to that loop. */
    final class Pool {
        private final EventLoop loop;
        private final Address address;
        private final Bootstrap bootstrap;
        private final ArrayDeque<Channel> idle = new ArrayDeque<>();
        private final ArrayDeque<Lease> waiting = new ArrayDeque<>();
        private int open;
        private boolean closedPool;
        /** The timer that closes connections left unused too long; {@code null} while none are idle. */
        private ScheduledFuture<?> sweep;

        private Pool(EventLoop loop, Address address) {
            this.loop = loop;
            this.address = address;
            this.bootstrap = new Bootstrap().group(loop)
                    .channelFactory(VertxHooks.channelFactory(vertx))
                    .resolver(VertxHooks.addressResolver(vertx))
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.SO_KEEPALIVE, true)
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            initConnection(channel);
                        }
                    });
        }

        /** Hands {@code lease} a connection: an idle one, a new one, or the next one given back. */
        void lease(Lease lease) {
            if (closedPool) {
                lease.failed(new UpstreamConnectionException("the upstream client is closed", null));
                return;
            }
            Channel connection;
            while ((connection = idle.pollFirst()) != null) {
                if (connection.isActive()) {
                    lease.granted(connection);
                    return;
                }
            }
            if (open < maxConnections) {
                connect(lease);
            } else {
                waiting.addLast(lease);
            }
        }

        /**
         * A connection whose answer, with the head {@code head}, was read whole: back to the pool, or
         * closed when the answer asked for that. Reading is on again (a stream may have paused it in
         * the read that brought its end).
         */
        void answered(Channel connection, HttpResponse head) {
            if (!connection.config().isAutoRead()) { // a volatile read; setting it is an atomic swap each time
                connection.config().setAutoRead(true);
            }
            if (HttpUtil.isKeepAlive(head)) {
                giveBack(connection);
            } else {
                abandon(connection);
            }
        }

        /** A connection that may carry another request. */
        void giveBack(Channel connection) {
            Answers answers = connection.attr(ANSWERS).get();
            answers.receiver = null;
            if (closedPool || !connection.isActive()) {
                connection.close();
                return;
            }
            Lease next = nextWaiting();
            if (next != null) {
                next.granted(connection);
            } else {
                answers.idleSince = System.nanoTime();
                idle.addFirst(connection); // the most recently used first: the others may time out idle
                if (sweep == null) {
                    sweep = loop.schedule(this::closeIdle, idleNanos, TimeUnit.NANOSECONDS);
                }
            }
        }

        /**
         * Closes the connections unused for {@code idle}, the longest unused first, and looks again
         * when the next will have been. One timer per pool, not one per connection touched by
         * every read and write.
         */
        private void closeIdle() {
            sweep = null;
            long now = System.nanoTime();
            Channel oldest;
            while ((oldest = idle.peekLast()) != null) {
                long unused = now - oldest.attr(ANSWERS).get().idleSince;
                if (unused < idleNanos) {
                    sweep = loop.schedule(this::closeIdle, idleNanos - unused, TimeUnit.NANOSECONDS);
                    return;
                }
                idle.pollLast();
                oldest.close();
            }
        }

        private void connect(Lease lease) {
            open++;
            ChannelFuture connecting = bootstrap.connect(address.host(), address.port());
            Channel connection = connecting.channel();
            connection.closeFuture().addListener(ignored -> closed(connection));
            connecting.addListener(done -> {
                if (done.isSuccess()) {
                    if (lease.abandoned()) {
                        giveBack(connection);
                    } else {
                        lease.granted(connection);
                    }
                } else {
                    lease.failed(done.cause());
                }
            });
        }

        private void closed(Channel connection) {
            open--;
            idle.remove(connection);
            if (!closedPool && open < maxConnections) {
                Lease next = nextWaiting();
                if (next != null) {
                    connect(next);
                }
            }
        }

        private Lease nextWaiting() {
            Lease next;
            while ((next = waiting.pollFirst()) != null) {
                if (!next.abandoned()) {
                    return next;
                }
            }
            return null;
        }

        private void close() {
            closedPool = true;
            if (sweep != null) {
                sweep.cancel(false);
                sweep = null;
            }
            Channel connection;
            while ((connection = idle.pollFirst()) != null) {
                connection.close();
            }
            Lease lease;
            while ((lease = waiting.pollFirst()) != null) {
                lease.failed(new UpstreamConnectionException("the upstream client is closed", null));
            }
        }

        private void initConnection(Channel channel) {
            ConnectionTuning.install(channel);
            if (address.ssl()) {
                SslHandler handler = tls().newHandler(channel.alloc(), address.host(), address.port());
                SSLEngine engine = handler.engine();
                SSLParameters parameters = engine.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                engine.setSSLParameters(parameters);
                channel.pipeline().addLast(handler);
            }
            // Only the answers are decoded: a call writes its request's bytes itself (CompleteCall), and
            // every request is a POST, whose answer has a body unless its status says it has none.
            Answers answers = new Answers();
            channel.attr(ANSWERS).set(answers);
            channel.pipeline().addLast(new HttpResponseDecoder(MAX_INITIAL_LINE, MAX_HEAD, maxChunkSize), answers);
        }
    }

    /**
     * Passes a connection's answer to its receiver; closes a connection answering nobody. An
     * informational head (a 100 Continue, say) and its end are no answer: the receiver never sees them.
     */
    private static final class Answers extends ChannelInboundHandlerAdapter {
        private Receiver receiver;
        /** When the connection was last given back to its pool (System.nanoTime). */
        private long idleSince;
        /** Between an informational head and its end. */
        private boolean informational;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            Receiver current = receiver;
            if (current == null || !(message instanceof HttpObject part)) {
                ReferenceCountUtil.release(message);
                ctx.close(); // an answer nobody asked for: the connection cannot be trusted with the next request
                return;
            }
            if (part.decoderResult().isSuccess()
                    && (informational || part instanceof HttpResponse head && isInformational(head))) {
                informational = !(part instanceof LastHttpContent); // the answer follows
                ReferenceCountUtil.release(message);
                return;
            }
            try {
                current.received(part);
            } finally {
                ReferenceCountUtil.release(message);
            }
        }

        private static boolean isInformational(HttpResponse head) {
            int status = head.status().code();
            return status / 100 == 1 && status != 101;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Receiver current = receiver;
            receiver = null;
            if (current != null) {
                current.broken(null);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Receiver current = receiver;
            receiver = null;
            if (current != null) {
                current.broken(cause);
            }
            ctx.close();
        }
    }
}
