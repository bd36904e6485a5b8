package io.agentfuse.springai;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitState;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.function.FunctionToolCallback;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real Spring AI function tool behind its configured breaker. */
class GuardedToolCallbackTest {

    record Query(String q) {
    }

    private final ManualClock clock = new ManualClock();
    private final AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.parse("""
            tools:
              web_search:
                circuitBreaker: { failureThreshold: 3, resetTimeout: 5m }
            """, "tools.yaml", Map.of())).manualClock(clock).build();
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean backendDown;

    private ToolCallback search() {
        Function<Query, String> search = query -> {
            calls.incrementAndGet();
            if (backendDown) {
                throw new IllegalStateException("search backend down");
            }
            return "found " + query.q();
        };
        return GuardedToolCallback.of(runtime, FunctionToolCallback.builder("web_search", search)
                .description("Searches the web").inputType(Query.class).build());
    }

    @Test
    void answersThroughTheGuardWhileTheToolIsHealthy() {
        assertThat(search().call("{\"q\":\"agentfuse\"}")).contains("found agentfuse");
        assertThat(runtime.registry().breaker("tool:web_search").state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anOpenBreakerAnswersCircuitOpenWithoutCallingTheTool() {
        ToolCallback tool = search();
        backendDown = true;
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> tool.call("{\"q\":\"x\"}")).hasMessageContaining("search backend down");
        }

        String answer = tool.call("{\"q\":\"x\"}");

        assertThat(answer).isEqualTo("CIRCUIT_OPEN: web_search is unavailable, retry after 300 s");
        assertThat(calls).hasValue(3);
        assertThat(runtime.registry().breaker("tool:web_search").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void keepsTheToolsDefinition() {
        assertThat(search().getToolDefinition().name()).isEqualTo("web_search");
        assertThat(search().getToolDefinition().description()).isEqualTo("Searches the web");
    }
}
