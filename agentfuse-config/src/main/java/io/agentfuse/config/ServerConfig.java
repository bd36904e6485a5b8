package io.agentfuse.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code server:} section: where the gateway listens and how it protects itself from
 * careless or hostile callers and providers.
 *
 * <p>Defaults ({@link ConfigDefaults#SERVER}): port {@code 8787}, {@code maxBodySize: 10MB}, no
 * admin token, one event loop per core, the best network transport that loads ({@link Transport#AUTO}),
 * the {@link Limits} below, loopback {@code Host} names only, no cross-origin browser requests, and a
 * {@link Shutdown} that drains for 5 s and gives requests in flight 30 s more.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * server:
 *   port: 8787
 *   maxBodySize: 10MB                          # bytes; KB/MB/GB are powers of 1024
 *   adminToken: ${AGENTFUSE_ADMIN_TOKEN:-}     # empty: the admin API is read-only
 *   eventLoops: 2                              # default: one per core
 *   transport: auto                            # or io_uring, epoll, nio
 *   headerTimeout: 30s                         # the whole request (head and body) must arrive in time
 *   idleTimeout: 75s
 *   maxConnections: 10000
 *   maxMessages: 10000
 *   maxUpstreamBody: 32MB
 *   maxSseEvent: 8MB
 *   clientWriteTimeout: 30s
 *   maxEventQueue: 1MB                         # per /admin/events subscriber
 *   allowedHosts: [gateway.internal]           # added to the loopback names and the bind address
 *   cors: { allowedOrigins: ["https://app.example.com"] }
 *   drainDelay: 5s                             # after SIGTERM: /readyz 503, new connections still taken
 *   shutdownGrace: 30s                         # then: requests in flight have this long to finish
 *   egressProxy: http://proxy.corp:3128        # default: HTTPS_PROXY / HTTP_PROXY of the environment
 * }</pre>
 *
 * @param port         TCP port, 0 to 65535 (0 picks a free port, handy in tests)
 * @param maxBodySize  the largest request body accepted, in bytes ({@code > 0})
 * @param adminToken   the bearer token that unlocks admin operations; empty means read-only
 * @param eventLoops   how many HTTP server instances (one per event loop) serve requests, {@code >= 1}
 * @param transport    what the gateway's sockets run on
 * @param limits       time and size bounds on everything a peer controls
 * @param allowedHosts {@code Host} names accepted besides the loopback names and the bind address;
 *                     {@code "*"} accepts any
 * @param cors         which browser origins may call the gateway
 * @param shutdown     how a stopping gateway drains (the keys {@code drainDelay} and {@code shutdownGrace},
 *                     written flat under {@code server:})
 * @param egress       how calls to providers and MCP servers leave: directly or through an HTTP proxy
 */
public record ServerConfig(int port, long maxBodySize, String adminToken, int eventLoops, Transport transport,
                           Limits limits, List<String> allowedHosts, Cors cors, Shutdown shutdown, Egress egress) {

    public ServerConfig {
        Objects.requireNonNull(egress, "egress");
        Objects.requireNonNull(adminToken, "adminToken");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(limits, "limits");
        allowedHosts = List.copyOf(allowedHosts);
        Objects.requireNonNull(cors, "cors");
        Objects.requireNonNull(shutdown, "shutdown");
        if (eventLoops < 1) {
            throw new IllegalArgumentException("eventLoops must be >= 1, but was " + eventLoops);
        }
    }

    /**
     * The bounds of docs/design.md §7 "Limits".
     *
     * @param headerTimeout      a request's head and body must have arrived this long after the connection
     *                           opened (slowloris); positive
     * @param idleTimeout        a connection without traffic is closed after this long; also the time the
     *                           next request on a keep-alive connection has to arrive; positive
     * @param maxConnections     open client connections; beyond, new ones are closed at once, {@code >= 1}
     * @param maxMessages        messages in one request, {@code >= 1}
     * @param maxUpstreamBody    bytes of one provider answer (error bodies too), {@code > 0}
     * @param maxSseEvent        bytes of one event of a provider's stream, {@code > 0}
     * @param clientWriteTimeout how long a caller may stop reading a stream before it is cut off and the
     *                           provider call cancelled; positive
     * @param maxEventQueue      bytes queued for one {@code /admin/events} subscriber before it is dropped
     */
    public record Limits(Duration headerTimeout, Duration idleTimeout, int maxConnections, int maxMessages,
                         long maxUpstreamBody, long maxSseEvent, Duration clientWriteTimeout, long maxEventQueue) {

        public Limits {
            Objects.requireNonNull(headerTimeout, "headerTimeout");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            Objects.requireNonNull(clientWriteTimeout, "clientWriteTimeout");
        }
    }

    /**
     * How a gateway told to stop (SIGTERM) drains, so that a rolling deploy cuts nothing in flight
     * (docs/design.md §14): {@code /readyz} answers 503 at once, new connections are still taken for
     * {@code drainDelay} (the time a load balancer needs to see it), then the listener closes and the
     * requests in flight have {@code shutdownGrace} to finish; streams still running then end with
     * their dialect's error event, other requests still unanswered get a 503. Read when the stop
     * comes, so a reload changes them.
     *
     * @param drainDelay    how long new connections are still accepted after the stop; zero or more
     * @param shutdownGrace how long requests in flight may take after the listener closed; zero or more
     */
    public record Shutdown(Duration drainDelay, Duration shutdownGrace) {

        public Shutdown {
            Objects.requireNonNull(drainDelay, "drainDelay");
            Objects.requireNonNull(shutdownGrace, "shutdownGrace");
            if (drainDelay.isNegative()) {
                throw new IllegalArgumentException("drainDelay must be >= 0, but was " + drainDelay);
            }
            if (shutdownGrace.isNegative()) {
                throw new IllegalArgumentException("shutdownGrace must be >= 0, but was " + shutdownGrace);
            }
        }

        /** The longest a stop can take: {@code drainDelay + shutdownGrace}. */
        public Duration longest() {
            return drainDelay.plus(shutdownGrace);
        }
    }

    /**
     * What moves the gateway's bytes: one of Netty's native Linux transports, or the JDK's NIO,
     * which runs everywhere. The native ones ship in the command line's jar for Linux x86-64.
     * On the 2-core benchmark machine io_uring cost ~8 µs less CPU per small proxied request than
     * epoll (about a quarter of the gateway's CPU; {@code agentfuse-bench/gateway/RESULTS.md}).
     */
    public enum Transport {
        /** io_uring where the kernel allows it (a container's seccomp profile often does not), else epoll, else NIO. */
        AUTO,
        /** Linux io_uring (kernel 5.9 or later); the gateway does not start where it cannot load. */
        IO_URING,
        /** Linux epoll; the gateway does not start where it cannot load. */
        EPOLL,
        /** The JDK's NIO selector: slower, but available on every platform. */
        NIO
    }

    /**
     * Cross-origin access from browsers: refused unless the origin is listed.
     *
     * @param allowedOrigins origins like {@code https://app.example.com} that may call the gateway
     */
    public record Cors(List<String> allowedOrigins) {

        public Cors {
            allowedOrigins = List.copyOf(allowedOrigins);
        }
    }

    /** A server section whose upstream calls go out directly ({@link Egress#DIRECT}). */
    public ServerConfig(int port, long maxBodySize, String adminToken, int eventLoops, Transport transport,
                        Limits limits, List<String> allowedHosts, Cors cors, Shutdown shutdown) {
        this(port, maxBodySize, adminToken, eventLoops, transport, limits, allowedHosts, cors, shutdown, Egress.DIRECT);
    }

    /**
     * How calls to providers and MCP servers leave the gateway: directly, or through an HTTP proxy
     * (a corporate egress proxy; an {@code https} upstream is reached through a {@code CONNECT}
     * tunnel, so the proxy never sees its traffic). {@code server.egressProxy} names one proxy for
     * every upstream; without it the environment's {@code HTTPS_PROXY} serves {@code https} upstreams
     * and {@code HTTP_PROXY} {@code http} ones (the lower-case names first, as curl reads them). The
     * hosts {@code NO_PROXY} lists are reached directly either way.
     *
     * @param httpProxy  the proxy of {@code http} upstreams, an {@code http} URL (user and password
     *                   allowed); {@code null}: direct
     * @param httpsProxy the proxy of {@code https} upstreams, likewise; {@code null}: direct
     * @param noProxy    {@code NO_PROXY}'s entries in lower case: a host (its subdomains too), a domain
     *                   with a leading dot, an IP address, each with an optional {@code :port}; or
     *                   {@code *} for every host
     */
    public record Egress(URI httpProxy, URI httpsProxy, List<String> noProxy) {

        /** Every upstream call goes out directly. */
        public static final Egress DIRECT = new Egress(null, null, List.of());

        public Egress {
            noProxy = List.copyOf(noProxy);
        }

        /** Hides a proxy's password, so that logging a config never leaks it. */
        @Override
        public String toString() {
            return "Egress[httpProxy=" + withoutPassword(httpProxy) + ", httpsProxy=" + withoutPassword(httpsProxy)
                    + ", noProxy=" + noProxy + "]";
        }

        private static String withoutPassword(URI proxy) {
            return proxy == null || proxy.getUserInfo() == null ? String.valueOf(proxy)
                    : proxy.getScheme() + "://***@" + proxy.getHost() + (proxy.getPort() < 0 ? "" : ":" + proxy.getPort());
        }
    }

    /** Whether admin operations (open, close, reset, disable a breaker) are allowed at all. */
    public boolean adminEnabled() {
        return !adminToken.isEmpty();
    }

    /** Hides the admin token, so that logging a config never leaks it. */
    @Override
    public String toString() {
        return "ServerConfig[port=" + port + ", maxBodySize=" + maxBodySize
                + ", adminToken=" + (adminEnabled() ? "***" : "") + ", eventLoops=" + eventLoops
                + ", transport=" + transport + ", limits=" + limits + ", allowedHosts=" + allowedHosts + ", cors=" + cors
                + ", shutdown=" + shutdown + ", egress=" + egress + "]";
    }
}
