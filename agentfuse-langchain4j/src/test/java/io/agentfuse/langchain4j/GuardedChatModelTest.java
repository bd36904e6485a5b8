package io.agentfuse.langchain4j;

import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.agentfuse.core.Guard;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A guarded blocking model over LangChain4j's real OpenAI and Anthropic clients and the mock provider. */
class GuardedChatModelTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 3, initialDelay: 2s, multiplier: 2 }
            breakers:
              default:
                consecutive5xx: 3
                consecutive429: 2
                tokenOveruse: { maxTokensPerCall: 1000 }
                resetTimeout: 5m
            models:
              gpt-4o: { provider: openai, fallbacks: [claude-haiku-4-5] }
              claude-haiku-4-5: { provider: anthropic }
            """;

    private final MockModels models = new MockModels();
    private final AgentfuseLangChain4j fuse = models.fuse(CONFIG);
    private final ChatModel model = fuse.chatModel("gpt-4o", models::chatModel);

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void aGuardThatDoesNotKnowLangChain4jsExceptionsIsRefusedAtBuildTime() {
        Guard plain = Guard.builder("model:gpt-4o").build();

        assertThatThrownBy(() -> GuardedChatModel.builder().model("gpt-4o", models.chatModel("gpt-4o"), plain))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LangChain4jOutcomes.classifier()");
    }

    @Test
    void answersFromThePrimaryWhenItIsHealthy() {
        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void aStormOf5xxFallsBackToTheNextModelAndTripsThePrimarysBreaker() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().text("from haiku").build());

        assertThat(model.chat("Hi")).isEqualTo("from haiku");

        assertThat(models.requestsFor("gpt-4o")).as("three attempts, then the breaker opened").isEqualTo(3);
        assertThat(fuse.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void anOpenPrimaryIsSkippedWithoutACall() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(502).times(3).build());
        model.chat("Hi");

        assertThat(model.chat("Hi again")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(3);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(2);
    }

    @Test
    void aRateLimitIsRetriedAfterTheBackoffAndThenAnswered() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("1").build());
        long before = models.clock.nanoTime();

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(2);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
        assertThat(Duration.ofNanos(models.clock.nanoTime() - before)).as("waited on the injected clock")
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void repeatedRateLimitsTripTheBreakerAndFallBack() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("1").times(3).build());

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4o")).as("consecutive429: 2").isEqualTo(2);
        assertThat(fuse.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void anAuthenticationFailureFallsBackWithoutRetry() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(401).times(3).build());

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void aModelItsProviderRetiredFallsBackWithoutRetry() {
        // GPT-4.5 Preview was shut down in July 2025: OpenAI, and the mock, answer 404 model_not_found.
        ChatModel retired = models.fuse(CONFIG.replace("gpt-4o: {", "gpt-4.5-preview: {"))
                .chatModel("gpt-4.5-preview", models::chatModel);

        assertThat(retired.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4.5-preview")).as("the same name is refused again: not retried").isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void aRefusedConnectionIsRetriedThenFallsBack() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        List<Outcome> seen = new ArrayList<>();
        ChatModel unreachable = OpenAiChatModel.builder().baseUrl("http://127.0.0.1:" + closedPort + "/v1")
                .apiKey("sk-test").modelName("gpt-4o").maxRetries(0).build();
        ChatModel chain = GuardedChatModel.builder()
                .model("gpt-4o", unreachable, observed(fuse.modelGuard("gpt-4o"), seen))
                .model("claude-haiku-4-5", models.chatModel("claude-haiku-4-5"), fuse.modelGuard("claude-haiku-4-5"))
                .build();

        assertThat(chain.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(seen).containsExactly(Outcome.CONNECTION_ERROR, Outcome.CONNECTION_ERROR, Outcome.CONNECTION_ERROR);
    }

    /** {@code guard}'s breaker, seeing the outcome of every attempt it records. */
    private static Guard observed(Guard guard, List<Outcome> seen) {
        guard.circuitBreaker().addListener(new CircuitBreakerListener() {
            @Override
            public void onCallRecorded(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
                seen.add(outcome);
            }
        });
        return guard;
    }

    @Test
    void aBadRequestIsThrownAsItIsWithoutRetryOrFallback() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(400).times(3).build());

        assertThatThrownBy(() -> model.chat("Hi")).isInstanceOf(InvalidRequestException.class);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
        assertThat(fuse.modelGuard("gpt-4o").circuitBreaker().state()).as("not the model's fault")
                .isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void whenEveryModelFailsTheErrorListsEachAndWhy() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(529).times(3).build());

        assertThatThrownBy(() -> model.chat("Hi"))
                .isInstanceOfSatisfying(AllModelsFailedException.class, failed -> {
                    assertThat(failed.steps()).extracting(StepFailure::step).containsExactly("gpt-4o", "claude-haiku-4-5");
                    assertThat(failed.steps()).extracting(StepFailure::outcome).extracting(Enum::name)
                            .containsExactly("SERVER_ERROR", "OVERLOADED");
                })
                .hasMessageContaining("gpt-4o failed").hasMessageContaining("claude-haiku-4-5 failed");
    }

    @Test
    void aResponseOverTheTokenLimitTripsTheBreakerButIsStillReturned() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().text("long").inputTokens(5000).build());

        assertThat(model.chat("Hi")).isEqualTo("long");

        assertThat(fuse.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }
}
