package io.agentfuse.config;

import java.util.Objects;

/**
 * One entry of the {@code clients:} section: a caller of the gateway, known by its key. When the
 * section is present every model and MCP request must carry one of the keys
 * ({@code Authorization: Bearer <key>} or {@code x-api-key: <key>}); the caller's tenant is then
 * the client's, whatever {@code x-agentfuse-tenant} says.
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows the key.
 *
 * <pre>{@code
 * clients:
 *   team-a: { key: "${TEAM_A_KEY}", tenant: team-a }
 * }</pre>
 *
 * @param name   the key under {@code clients}: the caller's name in budgets ({@code scope: key}) and logs
 * @param key    the secret the caller sends (never logged)
 * @param tenant the tenant its calls count for ({@code scope: tenant}); default the client's name
 */
public record ClientConfig(String name, String key, String tenant) {

    public ClientConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(tenant, "tenant");
    }

    @Override
    public String toString() {
        return "ClientConfig[name=" + name + ", tenant=" + tenant + ", key=(hidden)]";
    }
}
