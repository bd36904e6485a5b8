package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code server:} limits of docs/design.md §7: every key has a default and reads as written. */
class ServerLimitsConfigTest {

    @Test
    void everyLimitHasTheDesignDefault() {
        ServerConfig server = ConfigLoader.parse("server: {}\n", "a.yaml", Map.of()).server();

        assertThat(server.limits()).isEqualTo(new ServerConfig.Limits(Duration.ofSeconds(30), Duration.ofSeconds(75),
                10_000, 10_000, 32L << 20, 8L << 20, Duration.ofSeconds(30), 1L << 20));
        assertThat(server.eventLoops()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(server.transport()).isEqualTo(ServerConfig.Transport.AUTO);
        assertThat(server.allowedHosts()).isEmpty();
        assertThat(server.cors().allowedOrigins()).isEmpty();
    }

    @Test
    void everyLimitReadsAsWritten() {
        ServerConfig server = ConfigLoader.parse("""
                server:
                  eventLoops: 3
                  transport: epoll
                  headerTimeout: 1s
                  idleTimeout: 2
                  maxConnections: 50
                  maxMessages: 7
                  maxUpstreamBody: 64KB
                  maxSseEvent: 4KB
                  clientWriteTimeout: 500ms
                  maxEventQueue: 16KB
                  allowedHosts: [gateway.internal, "*"]
                  cors: { allowedOrigins: ["https://app.example.com", "http://127.0.0.1:3000"] }
                """, "a.yaml", Map.of()).server();

        assertThat(server.eventLoops()).isEqualTo(3);
        assertThat(server.transport()).isEqualTo(ServerConfig.Transport.EPOLL);
        assertThat(server.limits()).isEqualTo(new ServerConfig.Limits(Duration.ofSeconds(1), Duration.ofSeconds(2),
                50, 7, 64 * 1024, 4 * 1024, Duration.ofMillis(500), 16 * 1024));
        assertThat(server.allowedHosts()).containsExactly("gateway.internal", "*");
        assertThat(server.cors().allowedOrigins()).containsExactly("https://app.example.com", "http://127.0.0.1:3000");
    }

    @Test
    void everyBadLimitIsReportedAtOnce() {
        ConfigException failure = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("""
                        server:
                          idleTimeout: soon
                          maxMessages: -1
                          maxUpstreamBody: 0
                          allowedHosts: ["a/b"]
                        """, "a.yaml", Map.of()));

        assertThat(failure.errors()).extracting(ConfigError::path).containsExactlyInAnyOrderElementsOf(List.of(
                "server.idleTimeout", "server.maxMessages", "server.maxUpstreamBody", "server.allowedHosts[0]"));
    }

    @Test
    void aStopDrainsForFiveSecondsAndGivesThirtyByDefault() {
        ServerConfig server = ConfigLoader.parse("server: {}\n", "a.yaml", Map.of()).server();

        assertThat(server.shutdown()).isEqualTo(new ServerConfig.Shutdown(Duration.ofSeconds(5), Duration.ofSeconds(30)));
        assertThat(server.shutdown().longest()).isEqualTo(Duration.ofSeconds(35));
    }

    @Test
    void drainDelayAndShutdownGraceReadAsWrittenAndMayBeZero() {
        ServerConfig server = ConfigLoader.parse("server: { drainDelay: 0, shutdownGrace: 90 }\n", "a.yaml", Map.of()).server();

        assertThat(server.shutdown()).isEqualTo(new ServerConfig.Shutdown(Duration.ZERO, Duration.ofSeconds(90)));
    }

    @Test
    void aBadDrainDelayOrShutdownGraceIsReportedWithItsKeyAndLine() {
        ConfigException failure = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("server:\n  drainDelay: soon\n  shutdownGrace: -1s\n", "a.yaml", Map.of()));

        assertThat(failure.errors()).extracting(ConfigError::path).containsExactly("server.drainDelay", "server.shutdownGrace");
        assertThat(failure.errors()).extracting(ConfigError::line).containsExactly(2, 3);
        assertThat(failure.getMessage()).contains("soon").contains("-1s");
    }
}
