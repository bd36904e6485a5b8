package io.agentfuse.config.internal;

import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ServerConfig;
import io.agentfuse.config.StateConfig;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/** Reads the {@code server:} and {@code state:} sections: how the gateway process runs. */
final class ServerBinder {

    private static final int MAX_PORT = 65_535;
    private static final List<String> REDIS_SCHEMES = List.of("redis", "rediss");

    private ServerBinder() {
    }

    static ServerConfig server(MapReader section) {
        ServerConfig defaults = ConfigDefaults.SERVER;
        var server = new ServerConfig(
                section.integer("port", defaults.port(), 0, MAX_PORT),
                section.size("maxBodySize", defaults.maxBodySize()),
                section.string("adminToken", defaults.adminToken()));
        section.finish();
        return server;
    }

    static StateConfig state(MapReader section) {
        StateConfig defaults = ConfigDefaults.STATE;
        StateConfig.Store store = section.choice("store", defaults.store());
        MapReader redis = section.section("redis");
        URI defaultUri = URI.create(defaults.redis().uri());
        Optional<URI> uri = redis.url("uri", Optional.of(defaultUri), REDIS_SCHEMES);
        var state = new StateConfig(store, new StateConfig.Redis(uri.orElse(defaultUri).toString(),
                redis.string("keyPrefix", defaults.redis().keyPrefix())));
        redis.finish();
        section.finish();
        return state;
    }
}
