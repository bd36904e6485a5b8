package io.agentfuse.gateway;

import io.agentfuse.core.Clock;
import io.agentfuse.gateway.pipeline.ContextStage;
import io.agentfuse.gateway.reload.ConfigFile;
import io.agentfuse.gateway.upstream.UpstreamClientOptions;

import java.util.Objects;

/**
 * How to run a {@link GatewayServer}, beyond what its configuration file says.
 *
 * <p>Defaults: listen on {@code 127.0.0.1} (expose it deliberately, with {@code 0.0.0.0}: the
 * gateway calls providers with the configured keys), on {@code server.port} of the configuration,
 * {@link UpstreamClientOptions#defaults()}, and the configuration's context ladder
 * ({@code ContextLadderStage}) as the context-budget stage. Immutable.
 *
 * <pre>{@code
 * GatewayOptions options = GatewayOptions.builder().host("0.0.0.0").port(0).build();
 * }</pre>
 *
 * @param host         the address to listen on
 * @param port         the port, overriding {@code server.port}; {@code null} to use the configuration's
 * @param upstream     connection settings for calls to providers
 * @param contextStage builds the pipeline's context-budget step; {@code null} for the configuration's
 *                     ladder ({@code (runtime, models) -> ContextStage.NONE} turns it off)
 * @param clock        the clock of every breaker (open times, half-open probes); default the system
 *                     clock, a {@code ManualClock} in tests that play a timeline of minutes at once
 * @param configFile   the file the configuration was read from, for hot reload ({@code POST /admin/reload},
 *                     a change to the file); {@code null} when it came from elsewhere (no reload)
 */
public record GatewayOptions(String host, Integer port, UpstreamClientOptions upstream,
                             ContextStage.Factory contextStage, Clock clock, ConfigFile configFile) {

    public GatewayOptions {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port != null && (port < 0 || port > 65535)) {
            throw new IllegalArgumentException("port must be between 0 and 65535, but was " + port);
        }
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(clock, "clock");
    }

    /** Every default. */
    public static GatewayOptions defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects the options; not thread-safe. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private Integer port;
        private UpstreamClientOptions upstream = UpstreamClientOptions.defaults();
        private ContextStage.Factory contextStage;
        private Clock clock = Clock.system();
        private ConfigFile configFile;

        private Builder() {
        }

        /** The address to listen on; default {@code 127.0.0.1}. */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** The port, overriding {@code server.port} ({@code 0}: any free port). */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Connection settings for provider calls; default {@link UpstreamClientOptions#defaults()}. */
        public Builder upstream(UpstreamClientOptions upstream) {
            this.upstream = upstream;
            return this;
        }

        /** The context-budget step of the pipeline (see {@link ContextStage}); default none. */
        public Builder contextStage(ContextStage.Factory contextStage) {
            this.contextStage = contextStage;
            return this;
        }

        /** The clock of every breaker; default {@link Clock#system()}. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The file the configuration was read from, so that it can be reloaded; default none. */
        public Builder configFile(ConfigFile configFile) {
            this.configFile = configFile;
            return this;
        }

        /** The validated options. @throws IllegalArgumentException naming the bad value */
        public GatewayOptions build() {
            return new GatewayOptions(host, port, upstream, contextStage, clock, configFile);
        }
    }
}
