package io.agentfuse.config;

import java.util.Objects;

/**
 * The {@code server:} section: where the gateway listens and how it protects itself.
 *
 * <p>Defaults ({@link ConfigDefaults#SERVER}): port {@code 8787}, {@code maxBodySize: 10MB},
 * no admin token. Immutable and thread-safe.
 *
 * <pre>{@code
 * server:
 *   port: 8787
 *   maxBodySize: 10MB                          # bytes; KB/MB/GB are powers of 1024
 *   adminToken: ${AGENTFUSE_ADMIN_TOKEN:-}     # empty: the admin API is read-only
 * }</pre>
 *
 * @param port        TCP port, 0 to 65535 (0 picks a free port, handy in tests)
 * @param maxBodySize the largest request body accepted, in bytes ({@code > 0})
 * @param adminToken  the bearer token that unlocks admin operations; empty means read-only
 */
public record ServerConfig(int port, long maxBodySize, String adminToken) {

    public ServerConfig {
        Objects.requireNonNull(adminToken, "adminToken");
    }

    /** Whether admin operations (open, close, reset, disable a breaker) are allowed at all. */
    public boolean adminEnabled() {
        return !adminToken.isEmpty();
    }

    /** Hides the admin token, so that logging a config never leaks it. */
    @Override
    public String toString() {
        return "ServerConfig[port=" + port + ", maxBodySize=" + maxBodySize
                + ", adminToken=" + (adminEnabled() ? "***" : "") + "]";
    }
}
