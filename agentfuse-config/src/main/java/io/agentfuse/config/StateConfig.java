package io.agentfuse.config;

import java.util.Objects;

/**
 * The {@code state:} section: where breaker state lives.
 *
 * <p>Defaults ({@link ConfigDefaults#STATE}): {@code store: memory}; the Redis settings are
 * only used with {@code store: redis}. Immutable and thread-safe.
 *
 * <pre>{@code
 * state:
 *   store: redis
 *   redis: { uri: "redis://127.0.0.1:6379", keyPrefix: "agentfuse:" }
 * }</pre>
 *
 * @param store which store keeps breaker state
 * @param redis how to reach Redis (read even when unused, so that a typo is still an error)
 */
public record StateConfig(Store store, Redis redis) {

    public StateConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(redis, "redis");
    }

    /** Where breaker state is kept; written in YAML in lower case. */
    public enum Store {
        /** Each instance keeps its own breakers in memory. */
        MEMORY,
        /** Instances share trips and probes through Redis. */
        REDIS
    }

    /**
     * How to reach Redis.
     *
     * @param uri       a {@code redis://} or {@code rediss://} URI
     * @param keyPrefix prefix of every key agentfuse writes
     */
    public record Redis(String uri, String keyPrefix) {

        public Redis {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(keyPrefix, "keyPrefix");
        }
    }
}
