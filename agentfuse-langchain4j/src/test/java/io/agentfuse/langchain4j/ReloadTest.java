package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Decorators made from a runtime follow its reloads: the next call runs under the new settings and breakers. */
class ReloadTest {

    private static final String BEFORE = """
            retry: { maxAttempts: 1 }
            breakers:
              default: { consecutive5xx: 3, resetTimeout: 5m }
            models:
              gpt-4o: { provider: openai, fallbacks: [claude-haiku-4-5] }
              claude-haiku-4-5: { provider: anthropic }
            tools:
              web_search: { retries: 0, circuitBreaker: { failureThreshold: 3 } }
            """;
    private static final String AFTER = BEFORE.replace("consecutive5xx: 3", "consecutive5xx: 1")
            .replace("failureThreshold: 3", "failureThreshold: 1");

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(BEFORE);
    private final AgentfuseLangChain4j fuse = AgentfuseLangChain4j.of(runtime, models.clock);

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void aModelMadeBeforeAReloadTripsByTheNewSettings() {
        ChatModel model = fuse.chatModel("gpt-4o", models::chatModel);
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(2).build());
        model.chat("Hi");
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.CLOSED);

        runtime.reload(ConfigLoader.parse(AFTER, "agentfuse.yaml", Map.of()));
        model.chat("Hi");

        assertThat(runtime.registry().breaker("model:gpt-4o").state()).as("the registry's new breaker, one 5xx")
                .isEqualTo(CircuitState.OPEN);
    }

    @Test
    void anOperatorOpeningTheReloadedBreakerReachesTheModel() {
        ChatModel model = fuse.chatModel("gpt-4o", models::chatModel);
        runtime.reload(ConfigLoader.parse(AFTER, "agentfuse.yaml", Map.of()));

        runtime.registry().breaker("model:gpt-4o").forceOpen("maintenance");
        model.chat("Hi");

        assertThat(models.requestsFor("gpt-4o")).isZero();
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void aToolMadeBeforeAReloadTripsByTheNewSettings() {
        ToolExecutor failing = (request, memoryId) -> {
            throw new ToolExecutionException("down");
        };
        ToolExecutor tool = fuse.toolExecutor("web_search", failing);
        ToolExecutionRequest search = ToolExecutionRequest.builder().id("1").name("web_search").arguments("{}").build();
        runtime.reload(ConfigLoader.parse(AFTER, "agentfuse.yaml", Map.of()));

        assertThatThrownBy(() -> tool.execute(search, "s")).isInstanceOf(ToolExecutionException.class);

        assertThat(tool.execute(search, "s")).contains("CIRCUIT_OPEN");
    }
}
