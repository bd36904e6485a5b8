package io.agentfuse.springai;

import com.openai.errors.BadRequestException;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A guarded Spring AI OpenAI chat model against the mock provider on loopback. */
class GuardedChatModelTest {

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(MockModels.CONFIG);
    private final GuardedChatModel chat = models.guarded(runtime);

    @AfterEach
    void close() {
        models.close();
    }

    @Test
    void answersFromThePrimaryWhenItIsHealthy() {
        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o");
        assertThat(result.value().getResult().getOutput().getText()).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(models.mock.requestsFor("gpt-4o-mini")).isEmpty();
    }

    @Test
    void fiveHundredStormFallsBackAndTripsThePrimary() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        long before = models.clock.nanoTime();

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.value().getResult().getOutput().getText()).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(result.passed()).singleElement().satisfies(step -> {
            assertThat(step.kind()).isEqualTo(StepFailure.Kind.FAILED);
            assertThat(step.outcome()).isEqualTo(Outcome.SERVER_ERROR);
        });
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(3);
        assertThat(models.clock.nanoTime() - before).isEqualTo(Duration.ofSeconds(1 + 2).toNanos());
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void anOpenPrimaryIsSkippedWithoutACall() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        chat.call(new Prompt("trip it"));

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello again"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed()).singleElement().satisfies(step -> assertThat(step.skippedByOpenCircuit()).isTrue());
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(3);
    }

    @Test
    void rateLimitWithAShortRetryAfterIsWaitedOutOnTheSameModel() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("7").build());
        long before = models.clock.nanoTime();

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o");
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(2);
        assertThat(models.clock.nanoTime() - before).isEqualTo(Duration.ofSeconds(7).toNanos());
    }

    @Test
    void rateLimitWithARetryAfterLongerThanMaxDelayFallsOverAtOnceAndHoldsThePrimaryOpen() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("120").build());

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed()).singleElement().satisfies(step -> assertThat(step.outcome()).isEqualTo(Outcome.RATE_LIMITED));
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(1);
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void unauthorizedFallsBackWithoutRetry() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(401).build());

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed()).singleElement().satisfies(step -> {
            assertThat(step.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(step.cause()).isInstanceOf(ModelAuthException.class);
        });
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(1);
    }

    @Test
    void aModelItsProviderRetiredFallsBackWithoutRetry() {
        // GPT-4.5 Preview was shut down in July 2025: OpenAI, and the mock, answer 404 model_not_found.
        AgentfuseRuntime retired = models.runtime(MockModels.CONFIG.replace("gpt-4o: {", "gpt-4.5-preview: {"));
        GuardedChatModel guarded = GuardedChatModel.of(retired, "gpt-4.5-preview",
                Map.of("gpt-4.5-preview", models.model("gpt-4.5-preview"), "gpt-4o-mini", models.model("gpt-4o-mini")));

        FallbackResult<ChatResponse> result = guarded.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed()).singleElement().satisfies(step -> {
            assertThat(step.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(step.cause()).isInstanceOf(ModelNotServedException.class)
                    .hasMessageContaining("The model `gpt-4.5-preview` does not exist");
        });
        assertThat(models.mock.requestsFor("gpt-4.5-preview")).as("the same name is refused again: not retried").hasSize(1);
    }

    @Test
    void badRequestIsNeitherRetriedNorFallenBackAndSurfacesAsTheClientThrewIt() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(400).build());

        assertThatThrownBy(() -> chat.call(new Prompt("Hello"))).isInstanceOf(BadRequestException.class);

        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(1);
        assertThat(models.mock.requestsFor("gpt-4o-mini")).isEmpty();
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void tokenUsageOverTheLimitTripsTheBreakerButStillAnswers() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().inputTokens(1500).outputTokens(20).build());

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("a long prompt"));

        assertThat(result.step()).isEqualTo("gpt-4o");
        assertThat(result.value().getMetadata().getUsage().getTotalTokens()).isEqualTo(1520);
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
        assertThat(chat.execute(new Prompt("next")).step()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void refusedConnectionsAreRetriedThenFallBack() throws IOException {
        GuardedChatModel refusing = GuardedChatModel.of(runtime, "gpt-4o",
                Map.of("gpt-4o", MockModels.model("gpt-4o", "http://127.0.0.1:" + closedPort() + "/v1"),
                        "gpt-4o-mini", models.model("gpt-4o-mini")));

        FallbackResult<ChatResponse> result = refusing.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(result.passed()).singleElement().satisfies(step -> assertThat(step.outcome()).isEqualTo(Outcome.CONNECTION_ERROR));
    }

    @Test
    void everyModelFailingEndsWithAnErrorThatNamesEachOne() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().status(502).times(3).build());

        assertThatThrownBy(() -> chat.call(new Prompt("Hello")))
                .isInstanceOfSatisfying(FallbackExhaustedException.class, exhausted ->
                        assertThat(exhausted.steps()).extracting(StepFailure::step).containsExactly("gpt-4o", "gpt-4o-mini"))
                .hasMessageContaining("gpt-4o failed (SERVER_ERROR: HTTP 500: {\"code\"");
    }

    @Test
    void aConfigReloadAppliesToAChatModelMadeBeforeIt() {
        runtime.reload(ConfigLoader.parse(MockModels.CONFIG.replace("maxAttempts: 3", "maxAttempts: 1")
                .replace("consecutive5xx: 3", "consecutive5xx: 1"), "reloaded.yaml", Map.of()));
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());

        FallbackResult<ChatResponse> result = chat.execute(new Prompt("Hello"));

        assertThat(result.step()).isEqualTo("gpt-4o-mini");
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(1);
        assertThat(runtime.registry().breaker("model:gpt-4o").state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aChainNeedsAChatModelForEveryConfiguredFallback() {
        assertThatThrownBy(() -> GuardedChatModel.of(runtime, "gpt-4o", Map.of("gpt-4o", models.model("gpt-4o"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no ChatModel for the model gpt-4o-mini");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
