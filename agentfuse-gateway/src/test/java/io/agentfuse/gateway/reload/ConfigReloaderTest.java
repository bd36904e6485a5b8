package io.agentfuse.gateway.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.gateway.GatewayVertx;
import io.agentfuse.gateway.metrics.GatewayMetrics;
import io.agentfuse.gateway.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The order in which a reload becomes visible: whoever sees the new configuration in force (a
 * request for a new model, the admin API) and then reads {@code /metrics} finds the reload
 * counted and the new model's series declared. {@link ConfigReloadTest} covers reloads over HTTP.
 */
class ConfigReloaderTest {

    private static final String BASE = """
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:1/v1", apiKey: "sk-oai" }
            models:
              gpt-4o-mini: { provider: openai }
            """;
    private static final Duration HANG_GUARD = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private final Vertx vertx = GatewayVertx.create();
    private Path file;
    private AgentfuseRuntime runtime;
    private GatewayMetrics metrics;
    private ConfigReloader reloader;

    @BeforeEach
    void start() throws IOException {
        file = Files.writeString(dir.resolve("agentfuse.yaml"), BASE);
        runtime = AgentfuseRuntime.builder(ConfigLoader.load(file, Map.of())).build();
        metrics = new GatewayMetrics(runtime.registry());
        reloader = new ConfigReloader(vertx, runtime, metrics, new ConfigFile(file, Map.of(), Duration.ZERO));
    }

    @AfterEach
    void stop() {
        Await.result(vertx.close());
    }

    @Test
    void aReloadIsCountedAndItsModelsDeclaredBeforeItsConfigurationIsInForce() throws IOException {
        // Given a reloader whose file gains a model
        Files.writeString(file, BASE + "  mistral-large: { provider: openai }\n");

        // When the reload is asked for on an event loop that then stays busy until the new model is
        // in force, as a loaded machine may keep it: what the reloader would do on that loop after
        // the reload cannot have happened yet when the new configuration is first seen
        Promise<String> seen = Promise.promise();
        vertx.getOrCreateContext().runOnContext(ignored -> {
            Future<Reloaded> reload = reloader.reload("test");
            if (waitOnThisThread(() -> runtime.config().models().containsKey("mistral-large"))) {
                seen.complete(metrics.scrape());
            } else {
                seen.fail(new AssertionError("the new model was not put in force: " + reload));
            }
        });

        // Then the metrics read at that moment count the reload and show the new model's series at zero
        assertThat(Await.result(seen.future()))
                .contains("agentfuse_config_reloads_total{result=\"ok\"} 1.0")
                .contains("agentfuse_config_reloads_total{result=\"failed\"} 0.0")
                .contains("agentfuse_stream_interruptions_total{model=\"mistral-large\"} 0.0");
    }

    @Test
    void aRefusedReloadIsCountedAsFailedAndChangesNothing() throws IOException {
        // Given a file that names a provider nobody configured
        Files.writeString(file, BASE + "  mistral-large: { provider: nowhere }\n");

        // When it is reloaded
        Throwable failure = Await.failure(reloader.reload("test"));

        // Then the reload fails, is counted as failed, and neither the model nor its series appear
        assertThat(failure).hasMessageContaining("nowhere");
        assertThat(metrics.scrape()).contains("agentfuse_config_reloads_total{result=\"failed\"} 1.0")
                .contains("agentfuse_config_reloads_total{result=\"ok\"} 0.0")
                .doesNotContain("model=\"mistral-large\"");
        assertThat(runtime.config().models()).doesNotContainKey("mistral-large");
    }

    /**
     * Blocks the calling thread (an event loop, on purpose) until {@code condition} holds, within
     * {@link #HANG_GUARD}; whether it did. Parks a millisecond between looks, leaving the CPU to the
     * reloading thread.
     */
    private static boolean waitOnThisThread(BooleanSupplier condition) {
        long deadline = System.nanoTime() + HANG_GUARD.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }
}
