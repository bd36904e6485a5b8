package io.agentfuse.gateway.upstream;

import io.agentfuse.config.ServerConfig;

import java.time.Duration;
import java.util.Objects;

/**
 * Connection settings and limits of an {@link UpstreamClient}.
 *
 * <p>Immutable. {@code UpstreamClientOptions.defaults()} connects within 10 s, directly, keeps up to
 * 128 keep-alive connections per provider host and event loop, reads answers (error bodies too) of
 * at most 32 MB and stream events of at most 8 MB, and cancels a stream whose caller has not read on
 * for 30 s — the {@code server.maxUpstreamBody}, {@code server.maxSseEvent} and
 * {@code server.clientWriteTimeout} defaults.
 *
 * <pre>{@code
 * UpstreamClientOptions options = UpstreamClientOptions.defaults()
 *         .withLimits(32L << 20, 8 << 20, Duration.ofSeconds(30));
 * }</pre>
 *
 * @param connectTimeout        limit for opening a connection; positive
 * @param maxConnectionsPerHost pooled HTTP/1.1 connections per host on each event loop (each loop has its own pool,
 *                              which complete calls and streams share), {@code >= 1}
 * @param maxBodyBytes          the most bytes of one answer read; beyond, the attempt fails, {@code > 0}
 * @param maxEventBytes         the most bytes of one SSE event (and of one line), {@code > 0}
 * @param clientWriteTimeout    how long a stream stays paused because its caller does not read before
 *                              it is cancelled; positive
 * @param egress                the proxy, if any, calls go through ({@code server.egressProxy}, the environment)
 */
public record UpstreamClientOptions(Duration connectTimeout, int maxConnectionsPerHost, long maxBodyBytes,
                                    int maxEventBytes, Duration clientWriteTimeout, ServerConfig.Egress egress) {

    private static final long DEFAULT_MAX_BODY = 32L * 1024 * 1024;
    private static final int DEFAULT_MAX_EVENT = 8 * 1024 * 1024;
    private static final Duration DEFAULT_CLIENT_WRITE_TIMEOUT = Duration.ofSeconds(30);

    public UpstreamClientOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (connectTimeout.isNegative() || connectTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("connectTimeout must be >= 1ms, but was " + connectTimeout);
        }
        if (maxConnectionsPerHost < 1) {
            throw new IllegalArgumentException("maxConnectionsPerHost must be >= 1, but was " + maxConnectionsPerHost);
        }
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("maxBodyBytes must be >= 1, but was " + maxBodyBytes);
        }
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("maxEventBytes must be >= 1, but was " + maxEventBytes);
        }
        Objects.requireNonNull(egress, "egress");
        Objects.requireNonNull(clientWriteTimeout, "clientWriteTimeout");
        if (clientWriteTimeout.isNegative() || clientWriteTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("clientWriteTimeout must be >= 1ms, but was " + clientWriteTimeout);
        }
    }

    /** Direct connections with the default limits. */
    public UpstreamClientOptions(Duration connectTimeout, int maxConnectionsPerHost) {
        this(connectTimeout, maxConnectionsPerHost, DEFAULT_MAX_BODY, DEFAULT_MAX_EVENT, DEFAULT_CLIENT_WRITE_TIMEOUT,
                ServerConfig.Egress.DIRECT);
    }

    /**
     * 10 s to connect, 128 connections per host and event loop, the default limits. (Complete calls
     * and streams had 64 each in pools of their own, until they came to share one.)
     */
    public static UpstreamClientOptions defaults() {
        return new UpstreamClientOptions(Duration.ofSeconds(10), 128);
    }

    /** These connection settings with other limits. */
    public UpstreamClientOptions withLimits(long maxBodyBytes, int maxEventBytes, Duration clientWriteTimeout) {
        return new UpstreamClientOptions(connectTimeout, maxConnectionsPerHost, maxBodyBytes, maxEventBytes,
                clientWriteTimeout, egress);
    }

    /** These settings, calls going through {@code egress}'s proxy. */
    public UpstreamClientOptions withEgress(ServerConfig.Egress egress) {
        return new UpstreamClientOptions(connectTimeout, maxConnectionsPerHost, maxBodyBytes, maxEventBytes,
                clientWriteTimeout, egress);
    }
}
