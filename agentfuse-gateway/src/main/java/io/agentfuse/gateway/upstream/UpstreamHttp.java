package io.agentfuse.gateway.upstream;

import io.agentfuse.config.ServerConfig;
import io.agentfuse.gateway.dialect.AnswerShape;
import io.agentfuse.gateway.dialect.EgressProxyException;
import io.agentfuse.gateway.http.Disconnect;
import io.agentfuse.gateway.internal.ConnectionTuning;
import io.agentfuse.gateway.internal.vertx.VertxHooks;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gateway's one HTTP client stack for calls to upstreams, model providers and MCP servers
 * alike: Vert.x's {@code HttpClient}, set up in one place.
 * <ul>
 *   <li><b>One client per event loop</b>, made on first use: a call, its connection and its answer
 *       stay on its caller's loop. A client shared by the loops lends a connection of one loop to
 *       a request of another, and then every write and every answer crosses threads.</li>
 *   <li><b>Pools</b> of keep-alive connections per upstream address, at most
 *       {@link Settings#maxConnectionsPerHost()} each (calls beyond wait in order), closed after
 *       {@link Settings#idle()} unused; connected within {@link Settings#connectTimeout()}.</li>
 *   <li><b>TLS</b> with the JVM's trust store and host name verification, and <b>HTTP/2</b> where the
 *       upstream offers it in its TLS handshake (ALPN), HTTP/1.1 otherwise; cleartext upstreams
 *       (a local vLLM, the mock) speak HTTP/1.1.</li>
 *   <li><b>Egress proxy</b>: each request goes through the proxy {@link EgressProxy} picks for its
 *       host, if any ({@code server.egressProxy}, {@code HTTPS_PROXY}, {@code NO_PROXY}).</li>
 *   <li>Every connection is tuned as the gateway's others ({@link ConnectionTuning}), and an HTTP/1.1
 *       answer whose framing breaks fails as {@link NotHttpException} ({@link FramingCheck}): its
 *       connection is closed, never reused.</li>
 * </ul>
 *
 * <p>Thread-safe; {@link #close()} once, from anywhere.
 *
 * <pre>{@code
 * UpstreamHttp http = new UpstreamHttp(vertx, UpstreamHttp.Settings.direct(Duration.ofSeconds(10), 64));
 * http.request(new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url)).compose(request -> request.send(body));
 * }</pre>
 */
public final class UpstreamHttp {

    /** A request's failures reach its caller through its futures: its own handler only keeps Vert.x from logging them. */
    private static final Handler<Throwable> QUIET = reportedThroughItsFutures -> { };

    /** How long a connection may sit unused in a pool (Vert.x's default keep-alive timeout). */
    public static final Duration IDLE = Duration.ofSeconds(HttpClientOptions.DEFAULT_KEEP_ALIVE_TIMEOUT);

    /**
     * How an {@link UpstreamHttp} connects.
     *
     * @param connectTimeout        limit for opening a connection; at least 1 ms
     * @param maxConnectionsPerHost pooled connections per upstream address on each event loop, {@code >= 1}
     * @param idle                  how long a connection may sit unused in its pool; at least 1 ms
     * @param egress                which proxy, if any, the calls go through
     */
    public record Settings(Duration connectTimeout, int maxConnectionsPerHost, Duration idle, ServerConfig.Egress egress) {

        public Settings {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(idle, "idle");
            Objects.requireNonNull(egress, "egress");
            if (connectTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("connectTimeout must be >= 1ms, but was " + connectTimeout);
            }
            if (maxConnectionsPerHost < 1) {
                throw new IllegalArgumentException("maxConnectionsPerHost must be >= 1, but was " + maxConnectionsPerHost);
            }
            if (idle.toMillis() < 1) {
                throw new IllegalArgumentException("idle must be >= 1ms, but was " + idle);
            }
        }

        /** Direct connections (no proxy) closed after {@link #IDLE} unused. */
        public static Settings direct(Duration connectTimeout, int maxConnectionsPerHost) {
            return new Settings(connectTimeout, maxConnectionsPerHost, IDLE, ServerConfig.Egress.DIRECT);
        }
    }

    private final Vertx vertx;
    private final Settings settings;
    private final EgressProxy egress;
    private final Map<EventLoop, HttpClientAgent> clients = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public UpstreamHttp(Vertx vertx, Settings settings) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.egress = new EgressProxy(settings.egress());
    }

    /**
     * A request of {@code options} (an absolute URI, or host, port and TLS), on the client of the
     * current context's event loop: its callbacks run on that context. Unless {@code options} names
     * a proxy already, it is given the one {@link EgressProxy} picks for its host. Fails once
     * {@link #close()} was called.
     *
     * <p>A request's failures reach its caller through the futures of its end and its response; its
     * own exception handler is set to do nothing, else Vert.x logs an error ("Stream reset") for a
     * request reset before it was sent — a call that ended while it waited for its connection, a
     * normal event.
     */
    public Future<HttpClientRequest> request(RequestOptions options) {
        if (closed) {
            return Future.failedFuture(new UpstreamConnectionException("the upstream client is closed", null));
        }
        if (options.getProxyOptions() == null && options.getHost() != null) {
            boolean ssl = Boolean.TRUE.equals(options.isSsl());
            int port = options.getPort() != null ? options.getPort() : ssl ? 443 : 80;
            ProxyOptions proxy = egress.proxyFor(options.getHost(), port, ssl);
            if (proxy != null) {
                options.setProxyOptions(proxy);
            }
        }
        Future<HttpClientRequest> leased = client(vertx.getOrCreateContext()).request(options).onSuccess(UpstreamHttp::quiet);
        ProxyOptions proxy = options.getProxyOptions();
        return proxy == null ? leased
                : leased.recover(failure -> Future.failedFuture(ProxyRefusals.ofConnecting(failure, proxy, options)));
    }

    /**
     * The egress proxy's refusal of the gateway's login
     * when {@code response} is the proxy's 407 to a proxied request, else {@code null}: what a caller of
     * {@link #request} fails with in place of the answer ({@link ProxyRefusals#ofAnswer}).
     */
    public EgressProxyException refusalIn(HttpClientResponse response) {
        return ProxyRefusals.ofAnswer(response, egress);
    }

    /**
     * The context a request made from the current thread runs on: the current one (on a worker, the
     * event-loop context that handed it its work), else a new event-loop context.
     */
    Context context() {
        return vertx.getOrCreateContext();
    }

    /** Sets {@code request}'s exception handler to one that does nothing (a listener, not a mapped future, per call). */
    private static void quiet(HttpClientRequest request) {
        request.exceptionHandler(QUIET);
    }

    /**
     * A client stack with the same settings and pools of its own: for requests that hold their
     * connection for long (an MCP server's {@code GET} stream) and must not take the connections
     * that short calls wait for.
     */
    public UpstreamHttp withOwnPools() {
        return new UpstreamHttp(vertx, settings);
    }

    /**
     * The login of the egress proxy its requests go through, as it is sent ({@link EgressProxy#secrets}):
     * secrets for {@link Redaction}, as what an upstream (or the proxy) answers may echo it. Empty without one.
     */
    public List<String> proxySecrets() {
        return egress.secrets();
    }

    /** The proxy choice of this client's requests, for the requests of an {@link io.agentfuse.gateway.dialect.UpstreamAuth}. */
    EgressProxy egress() {
        return egress;
    }

    /**
     * Ends a call that was sent, before its answer ended: {@code request} is reset, and an HTTP/1.x
     * connection, which the reset closes, is closed at once ({@link Disconnect#now}). Vert.x closes it
     * only once what is queued for it is written, and an upstream that stopped reading never lets that
     * finish: a 5 MB request to one stayed on its connection, with the descriptor, for minutes after
     * the caller had its 504 (and held the process's exit). An HTTP/2 connection keeps serving other
     * calls: only its stream is reset.
     */
    public static void abandon(HttpClientRequest request) {
        HttpConnection connection = request.connection();
        request.reset();
        if (connection != null && request.version() != HttpVersion.HTTP_2) {
            Disconnect.now(connection);
        }
    }

    /**
     * What an answer that redirects ({@code 3xx}, to {@code location}) tells in place of its body.
     * No client of this stack follows a redirect: it would carry the provider's key, or a caller's
     * MCP session, wherever the answer points, past the gateway's guards. An upstream redirects when
     * its address moved ({@code http} to {@code https}, a new path), so the note asks whether
     * {@code address} (the configuration key of the address) is current.
     */
    public static String redirectNote(String location, String address) {
        return "a redirect" + (location == null ? "" : " to " + AnswerShape.excerpt(location))
                + ", not followed: is " + address + " current?";
    }

    /** Closes every client and its connections; a later request fails. */
    public Future<Void> close() {
        closed = true;
        List<Future<Void>> closing = new ArrayList<>();
        clients.values().forEach(client -> closing.add(client.close()));
        clients.clear();
        return Future.join(closing).mapEmpty();
    }

    private HttpClientAgent client(Context context) {
        return clients.computeIfAbsent(VertxHooks.eventLoop(context), loop -> newClient());
    }

    private HttpClientAgent newClient() {
        HttpClientOptions options = new HttpClientOptions()
                .setKeepAlive(true)
                .setKeepAliveTimeout((int) Math.max(1, (settings.idle().toMillis() + 999) / 1000))
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()))
                .setTcpNoDelay(true)
                .setTcpKeepAlive(true)
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setUseAlpn(true)
                .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
                .setVerifyHost(true);
        PoolOptions pool = new PoolOptions().setHttp1MaxSize(settings.maxConnectionsPerHost())
                // Unused connections are looked for this often: a tenth of the idle time, at most a second.
                .setCleanerPeriod((int) Math.max(10, Math.min(1000, settings.idle().toMillis() / 10)));
        return vertx.httpClientBuilder().with(options).with(pool).withConnectHandler(UpstreamHttp::tune).build();
    }

    /**
     * Every new connection: tuned as the gateway's others, read one buffer at a time, and an
     * HTTP/1.1 one's framing checked.
     */
    private static void tune(HttpConnection connection) {
        ConnectionTuning.install(connection);
        readOneBufferAtATime(VertxHooks.channel(connection));
        VertxHooks.checkClientFraming(connection, FramingCheck::new);
    }

    /**
     * A paused answer stops being read after one buffer (at most 64 KB), not sixteen. Vert.x stops
     * reading a connection whose answer is paused only once the read under way completes, and Netty
     * reads up to sixteen buffers in a row while the peer has more: a provider that streams as fast as
     * it is read put a megabyte of its answer in the heap of each stream whose caller had stopped
     * reading, and seventy such streams filled a 160 MiB gateway. An answer that arrives as fast as it
     * is read now takes a turn of the event loop per buffer (a stream's events, which come in small
     * reads, are not affected).
     */
    private static void readOneBufferAtATime(Channel channel) {
        if (channel.config().getRecvByteBufAllocator() instanceof MaxMessagesRecvByteBufAllocator reads) {
            reads.maxMessagesPerRead(1);
        }
    }
}
