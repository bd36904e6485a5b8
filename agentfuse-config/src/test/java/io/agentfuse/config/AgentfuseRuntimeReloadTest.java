package io.agentfuse.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A hot reload keeps the state of every breaker whose settings did not change. */
class AgentfuseRuntimeReloadTest {

    private static final String BEFORE = """
            providers: { anthropic: {} }
            models:
              sonnet: { provider: anthropic }
              haiku: { provider: anthropic, breaker: { consecutive429: 2 } }
              opus: { provider: anthropic }
            mcpServers:
              search: { url: "http://127.0.0.1:9000/mcp" }
            """;

    private static final String AFTER = """
            providers: { anthropic: {} }
            models:
              sonnet: { provider: anthropic, timeout: 90s }
              haiku: { provider: anthropic, breaker: { consecutive429: 4 } }
              fresh: { provider: anthropic }
            mcpServers:
              search: { url: "http://127.0.0.1:9000/mcp", circuitBreaker: { failureThreshold: 5 } }
            """;

    private final ManualClock clock = new ManualClock();

    @Test
    void unchangedBreakerKeepsItsStateAndInstance() {
        AgentfuseRuntime runtime = runtime(BEFORE);
        CircuitBreaker sonnet = runtime.registry().find("model:sonnet").orElseThrow();
        sonnet.forceOpen("operator");

        ReloadReport report = runtime.reload(config(AFTER));

        assertThat(report.kept()).contains("model:sonnet");
        assertThat(runtime.registry().find("model:sonnet")).containsSame(sonnet);
        assertThat(runtime.modelGuard("sonnet").circuitBreaker().state()).isEqualTo(CircuitState.FORCED_OPEN);
    }

    @Test
    void guardAfterReloadUsesTheNewSettingsWithTheKeptBreaker() {
        AgentfuseRuntime runtime = runtime(BEFORE);
        Guard before = runtime.modelGuard("sonnet");

        runtime.reload(config(AFTER));
        Guard after = runtime.modelGuard("sonnet");

        assertThat(after).isNotSameAs(before);
        assertThat(after.timeout().duration()).hasSeconds(90);
        assertThat(after.circuitBreaker()).isSameAs(before.circuitBreaker());
        assertThat(after.bulkhead()).isSameAs(before.bulkhead());
    }

    @Test
    void changedBreakerStartsAfreshAndRemovedModelsLoseTheirs() {
        AgentfuseRuntime runtime = runtime(BEFORE);
        runtime.registry().find("model:haiku").orElseThrow().forceOpen("operator");

        ReloadReport report = runtime.reload(config(AFTER));

        assertThat(report).isEqualTo(new ReloadReport(List.of("model:fresh"),
                List.of("model:claude-haiku-4", "model:gpt-4o-mini", "model:sonnet"),
                List.of("model:haiku"), List.of("model:opus")));
        assertThat(runtime.modelGuard("haiku").circuitBreaker().state()).isEqualTo(CircuitState.CLOSED);
        assertThat(runtime.registry().find("model:opus")).isEmpty();
    }

    @Test
    void lazilyCreatedToolBreakerIsReplacedWhenItsServerSettingsChange() {
        AgentfuseRuntime runtime = runtime(BEFORE);
        CircuitBreaker kept = runtime.toolGuard("local_tool").circuitBreaker();
        CircuitBreaker changed = runtime.mcpToolGuard("search", "web_search").circuitBreaker();

        ReloadReport report = runtime.reload(config(AFTER));

        assertThat(report.kept()).contains("tool:local_tool");
        assertThat(report.replaced()).contains("tool:search/web_search");
        assertThat(runtime.toolGuard("local_tool").circuitBreaker()).isSameAs(kept);
        assertThat(runtime.mcpToolGuard("search", "web_search").circuitBreaker()).isNotSameAs(changed);
    }

    @Test
    void aRemovedModelOfAFamilyNameKeepsItsOpenBreakerAsAFamilyModel() {
        AgentfuseRuntime runtime = runtime(BEFORE.replace("models:\n", "models:\n  claude-opus-4-1: { provider: anthropic }\n"));
        runtime.modelGuard("claude-opus-4-1").circuitBreaker().forceOpen("operator");

        runtime.reload(config(BEFORE));

        assertThat(runtime.model("claude-opus-4-1").orElseThrow().fallbacks()).isEmpty();
        assertThat(runtime.modelGuard("claude-opus-4-1").circuitBreaker().state()).isEqualTo(CircuitState.FORCED_OPEN);
    }

    @Test
    void aRemovedModelOfAFamilyNameStaysServedOutsideTheLimitOfNamesCallersChose() {
        // Given a configured family-named model, and every place for unconfigured family names taken
        AgentfuseRuntime runtime = runtime(BEFORE.replace("models:\n", "models:\n  claude-opus-4-1: { provider: anthropic }\n"));
        CircuitBreaker declared = runtime.modelGuard("claude-opus-4-1").circuitBreaker();
        for (int i = 0; i < ConfigDefaults.UNCONFIGURED_FAMILY_MODELS; i++) {
            runtime.modelGuard("gpt-made-up-" + i);
        }

        // When a reload removes its entry
        ReloadReport report = runtime.reload(config(BEFORE));

        // Then it is served as a family model with the breaker it had (an operator's doing, not a
        // caller's, so it takes no caller's place), and the limit still refuses a new name
        assertThat(runtime.model("claude-opus-4-1")).isPresent();
        assertThat(runtime.registry().find("model:claude-opus-4-1")).containsSame(declared);
        assertThat(report.removed()).isEmpty();
        assertThat(report.kept()).contains("model:claude-opus-4-1", "model:gpt-made-up-0");
        assertThat(runtime.model("gpt-made-up-x")).isEmpty();
    }

    @Test
    void reloadingTheSameConfigurationKeepsEveryBreaker() {
        AgentfuseRuntime runtime = runtime(BEFORE);

        ReloadReport report = runtime.reload(config(BEFORE));

        // claude-haiku-4 and gpt-4o-mini: the default subagents.fallbacks, models of their families.
        assertThat(report.kept()).containsExactly("model:claude-haiku-4", "model:gpt-4o-mini", "model:haiku",
                "model:opus", "model:sonnet");
        assertThat(report.added()).isEmpty();
        assertThat(report.replaced()).isEmpty();
        assertThat(report.removed()).isEmpty();
    }

    @Test
    void concurrentCallersGetTheRegisteredBreakerWhileReloadsHappen() throws Exception {
        AgentfuseRuntime runtime = runtime(BEFORE);
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        var start = new CountDownLatch(1);
        var done = new CountDownLatch(threads);
        Set<CircuitBreaker> seen = ConcurrentHashMap.newKeySet();
        try {
            for (int thread = 0; thread < threads; thread++) {
                pool.execute(() -> {
                    try {
                        start.await();
                        for (int call = 0; call < 1_000; call++) {
                            seen.add(runtime.modelGuard("sonnet").circuitBreaker());
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        done.countDown();
                    }
                });
            }
            start.countDown();
            for (int reload = 0; reload < 50; reload++) {
                runtime.reload(config(reload % 2 == 0 ? AFTER : BEFORE));
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }

        // sonnet's breaker settings are equal in both files, so every caller saw the one breaker
        assertThat(seen).containsExactly(runtime.registry().find("model:sonnet").orElseThrow());
    }

    private AgentfuseRuntime runtime(String yaml) {
        return AgentfuseRuntime.builder(config(yaml)).manualClock(clock).build();
    }

    private static AgentfuseConfig config(String yaml) {
        return ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of());
    }
}
