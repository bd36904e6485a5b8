package io.agentfuse.config;

import static io.agentfuse.config.AgentfuseRuntimeTest.MODELS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Models of a known family served without an entry of their own ({@code claude-*}, {@code gpt-*}):
 * their provider, window and breaker come from the family, and how many such names one
 * configuration serves is bounded, so that callers inventing names cannot grow the gateway's state.
 */
class FamilyModelRuntimeTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void aFamilyModelWithoutAnEntryGetsItsProviderItsWindowAndTheDefaultBreaker() {
        AgentfuseRuntime runtime = runtime(MODELS);

        ModelConfig opus = runtime.model("claude-opus-4-1").orElseThrow();
        Guard guard = runtime.modelGuard("claude-opus-4-1");

        assertThat(opus.provider()).isEqualTo("anthropic");
        assertThat(opus.upstreamModel()).isEqualTo("claude-opus-4-1");
        assertThat(opus.contextWindow()).isEqualTo(200_000);
        assertThat(opus.breakerName()).contains(ConfigDefaults.DEFAULT_BREAKER_NAME);
        assertThat(guard.name()).isEqualTo("model:claude-opus-4-1");
        assertThat(runtime.model("claude-opus-4-1").orElseThrow()).isSameAs(opus);
        assertThat(runtime.model("sonnet").orElseThrow()).isSameAs(runtime.config().models().get("sonnet"));
        assertThat(runtime.model("llama-3")).isEmpty();
    }

    @Test
    void familyModelsWithoutAnEntryAreBoundedPerConfiguration() {
        AgentfuseRuntime runtime = runtime(MODELS);
        for (int i = 0; i < ConfigDefaults.UNCONFIGURED_FAMILY_MODELS; i++) {
            assertThat(runtime.model("gpt-made-up-" + i)).isPresent();
        }

        assertThat(runtime.model("gpt-made-up-x")).isEmpty();
        assertThat(runtime.model("gpt-made-up-0")).isPresent();
        assertThatThrownBy(() -> runtime.modelGuard("gpt-made-up-x")).hasMessageContaining("is not configured");

        runtime.modelGuard("gpt-made-up-0").circuitBreaker().forceOpen("operator");
        runtime.reload(runtime.config());
        assertThat(runtime.model("gpt-made-up-x")).as("a reload keeps the models served, and the bound").isEmpty();
        assertThat(runtime.model("gpt-made-up-31")).isPresent();
        assertThat(runtime.modelGuard("gpt-made-up-0").circuitBreaker().state())
                .as("a reload never closes an open breaker by accident").isEqualTo(CircuitState.FORCED_OPEN);
    }

    @Test
    void givenEveryPlaceTakenWhenAFamilyModelIdlesPastTheIdleTimeoutThenANewNameTakesItsPlace() {
        // Given every place for unconfigured family names taken, one of them unused for an hour
        AgentfuseRuntime runtime = runtime(MODELS);
        runtime.modelGuard("gpt-made-up-0");
        clock.advance(Duration.ofMinutes(30));
        for (int i = 1; i < ConfigDefaults.UNCONFIGURED_FAMILY_MODELS; i++) {
            runtime.modelGuard("gpt-made-up-" + i);
        }
        clock.advance(Duration.ofMinutes(30));

        // When a new name comes
        Guard fresh = runtime.modelGuard("gpt-new");

        // Then the idle one's breaker made room, and it is no longer served until there is room again
        assertThat(fresh.circuitBreaker().name()).isEqualTo("model:gpt-new");
        assertThat(runtime.registry().find("model:gpt-made-up-0")).isEmpty();
        assertThat(runtime.model("gpt-made-up-0")).isEmpty();
        assertThat(runtime.model("gpt-made-up-1")).isPresent();
        assertThat(runtime.model("sonnet")).as("configured models are never bounded").isPresent();
    }

    @Test
    void familyModelsAreBoundedUnderConcurrentFirstRequests() throws InterruptedException {
        AgentfuseRuntime runtime = runtime(MODELS);
        int threads = 8;
        int namesEach = ConfigDefaults.UNCONFIGURED_FAMILY_MODELS;
        var start = new CountDownLatch(1);
        Set<String> served = ConcurrentHashMap.newKeySet();
        var workers = new ArrayList<Thread>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < namesEach; i++) {
                    String name = "gpt-t" + thread + "-" + i;
                    runtime.model(name).ifPresent(model -> served.add(model.name()));
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }

        assertThat(served).hasSize(ConfigDefaults.UNCONFIGURED_FAMILY_MODELS);
    }

    private AgentfuseRuntime runtime(String yaml) {
        return AgentfuseRuntimeTest.runtime(yaml, clock);
    }
}
