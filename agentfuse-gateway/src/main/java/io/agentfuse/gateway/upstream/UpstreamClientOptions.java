package io.agentfuse.gateway.upstream;

import java.time.Duration;
import java.util.Objects;

/**
 * Connection settings of an {@link UpstreamClient}.
 *
 * <p>Immutable. {@code UpstreamClientOptions.defaults()} connects within 10 s and keeps up to
 * 64 keep-alive connections per provider host.
 *
 * @param connectTimeout        limit for opening a connection; positive
 * @param maxConnectionsPerHost pooled HTTP/1.1 connections per host, {@code >= 1}
 */
public record UpstreamClientOptions(Duration connectTimeout, int maxConnectionsPerHost) {

    public UpstreamClientOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (connectTimeout.isNegative() || connectTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("connectTimeout must be >= 1ms, but was " + connectTimeout);
        }
        if (maxConnectionsPerHost < 1) {
            throw new IllegalArgumentException("maxConnectionsPerHost must be >= 1, but was " + maxConnectionsPerHost);
        }
    }

    /** 10 s to connect, 64 connections per host. */
    public static UpstreamClientOptions defaults() {
        return new UpstreamClientOptions(Duration.ofSeconds(10), 64);
    }
}
