package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockStep;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Tools behind their own breakers, alone and inside a real LangChain4j AI service talking to the mock provider. */
class GuardedToolExecutorTest {

    private static final String CONFIG = """
            models:
              gpt-4o: { provider: openai }
            tools:
              web_search:
                timeout: 30
                retries: 0
                circuitBreaker: { failureThreshold: 2, resetTimeout: 300000, halfOpenRequests: 1 }
            """;

    private static final ToolExecutionRequest SEARCH = ToolExecutionRequest.builder()
            .id("call_1").name("web_search").arguments("{\"query\": \"breakers\"}").build();

    private final MockModels models = new MockModels();
    private final AgentfuseLangChain4j fuse = models.fuse(CONFIG);
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean searchIsDown;
    private final ToolExecutor search = (request, memoryId) -> {
        calls.incrementAndGet();
        if (searchIsDown) {
            throw new ToolExecutionException("search backend unreachable");
        }
        return "three results about " + request.arguments();
    };

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void aHealthyToolAnswersThroughItsGuard() {
        assertThat(fuse.toolExecutor("web_search", search).execute(SEARCH, "session-1")).startsWith("three results");
        assertThat(calls).hasValue(1);
    }

    @Test
    void aFailingToolThrowsAsItThrewUntilItsBreakerOpens() {
        ToolExecutor guarded = fuse.toolExecutor("web_search", search);
        searchIsDown = true;

        assertThatThrownBy(() -> guarded.execute(SEARCH, "session-1")).isInstanceOf(ToolExecutionException.class);
        assertThatThrownBy(() -> guarded.execute(SEARCH, "session-1")).isInstanceOf(ToolExecutionException.class);

        assertThat(fuse.toolGuard("web_search").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void anOpenToolBreakerReturnsTheStructuredErrorWithoutCallingTheTool() {
        ToolExecutor guarded = fuse.toolExecutor("web_search", search);
        fuse.toolGuard("web_search").circuitBreaker().open("test: the backend is down");

        String answer = guarded.execute(SEARCH, "session-1");

        assertThat(calls).hasValue(0);
        JsonObject error = new JsonObject(answer);
        assertThat(error.getString("error")).isEqualTo("CIRCUIT_OPEN");
        assertThat(error.getString("message")).startsWith("web_search is unavailable").contains("tool:web_search");
        assertThat(error.getLong("retryAfter")).isEqualTo(300L);
    }

    @Test
    void withAnInvocationContextTheRejectionIsAnErrorResult() {
        ToolExecutor guarded = fuse.toolExecutor("web_search", search);
        fuse.toolGuard("web_search").circuitBreaker().open("test");

        ToolExecutionResult result = guarded.executeWithContext(SEARCH, InvocationContext.builder().chatMemoryId("s").build());

        assertThat(result.isError()).isTrue();
        assertThat(result.resultText()).contains("\"error\": \"CIRCUIT_OPEN\"");
        assertThat(calls).hasValue(0);
    }

    @Test
    void theToolIsTriedAgainOnceItsOpenTimeIsOver() {
        ToolExecutor guarded = fuse.toolExecutor("web_search", search);
        fuse.toolGuard("web_search").circuitBreaker().open("test");

        models.clock.advance(Duration.ofMinutes(5));

        assertThat(guarded.execute(SEARCH, "session-1")).startsWith("three results");
        assertThat(fuse.toolGuard("web_search").circuitBreaker().state()).isEqualTo(CircuitState.CLOSED);
    }

    interface Assistant {
        String chat(String message);
    }

    @Test
    void anAgentWhoseToolIsOpenHearsTheStructuredErrorAndGoesOn() {
        fuse.toolGuard("web_search").circuitBreaker().open("test: the backend is down");
        models.mock.scriptForModel("gpt-4o",
                MockStep.builder().toolCall("call_1", "web_search", new JsonObject().put("query", "breakers")).build(),
                MockStep.builder().text("Search is down; answering from memory.").build());
        ToolSpecification specification = ToolSpecification.builder().name("web_search").description("Searches the web")
                .parameters(JsonObjectSchema.builder().addStringProperty("query").required("query").build()).build();
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(fuse.chatModel("gpt-4o", models::chatModel))
                .tools(fuse.tools(Map.of(specification, search)))
                .build();

        assertThat(assistant.chat("What are circuit breakers?")).isEqualTo("Search is down; answering from memory.");

        assertThat(calls).hasValue(0);
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(2);
        assertThat(models.mock.requestsFor("gpt-4o").get(1).body()).contains("CIRCUIT_OPEN").contains("web_search is unavailable");
    }
}
