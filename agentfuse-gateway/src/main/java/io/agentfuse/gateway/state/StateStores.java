package io.agentfuse.gateway.state;

import io.agentfuse.config.StateConfig;
import io.agentfuse.core.breaker.shared.BreakerStateStore;
import io.agentfuse.redis.RedisStateStore;

import java.util.Optional;

/**
 * The one place the gateway turns {@code state:} into a store: none for {@code store: memory}
 * (breakers are this process's alone), a {@link RedisStateStore} on {@code state.redis.uri} with
 * {@code state.redis.keyPrefix} for {@code store: redis}. The store connects in the background and
 * never delays the start: while Redis is away, breakers work locally.
 */
public final class StateStores {

    private StateStores() {
    }

    /** The store {@code state} asks for, if any; the caller closes it. */
    public static Optional<BreakerStateStore> open(StateConfig state) {
        return switch (state.store()) {
            case MEMORY -> Optional.empty();
            case REDIS -> Optional.of(RedisStateStore.create(state.redis().uri(), state.redis().keyPrefix()));
        };
    }
}
