package io.agentfuse.langchain4j;

import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A provider's {@code Retry-After}, seen through {@link HeaderKeepingHttpClientBuilder}: a short
 * wait is waited out on the same model, a long one falls over at once and holds the breaker open
 * (docs/design.md §4, wait or fall over); {@code x-should-retry: false} is not retried. The caller still
 * sees LangChain4j's own exceptions.
 */
class RetryAfterTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 3, initialDelay: 2s, multiplier: 2, maxDelay: 30s }
            breakers:
              default:
                consecutive429: 5
                resetTimeout: 30s
            models:
              gpt-4o: { provider: openai, fallbacks: [claude-haiku-4-5] }
              claude-haiku-4-5: { provider: anthropic }
            """;

    private final MockModels models = new MockModels();
    private final AgentfuseLangChain4j fuse = models.fuse(CONFIG);
    private final ChatModel model = fuse.chatModel("gpt-4o", models::chatModelKeepingHeaders);

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void aShortRetryAfterIsWaitedOutInsteadOfTheBackoff() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("1").build());
        long before = models.clock.nanoTime();

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(Duration.ofNanos(models.clock.nanoTime() - before)).isEqualTo(Duration.ofSeconds(1));
        assertThat(models.requestsFor("gpt-4o")).isEqualTo(2);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void retryAfterMsIsHonouredToo() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfterMs("1500").build());
        long before = models.clock.nanoTime();

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(Duration.ofNanos(models.clock.nanoTime() - before)).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void aLongRetryAfterFallsOverAtOnceAndHoldsTheBreakerOpenThatLong() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("120").times(3).build());
        long before = models.clock.nanoTime();

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.clock.nanoTime()).as("nothing waited").isEqualTo(before);
        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
        var breaker = fuse.modelGuard("gpt-4o").circuitBreaker();
        models.clock.advance(Duration.ofSeconds(60));
        assertThat(breaker.state()).as("past resetTimeout (30 s), within Retry-After").isEqualTo(CircuitState.OPEN);
        models.clock.advance(Duration.ofSeconds(61));
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void aServerThatSaysDoNotRetryIsNotRetriedButFallenBackFrom() {
        // What an agentfuse gateway in front says on its 502: it has retried and fallen back already.
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(502).header("x-should-retry", "false").times(3).build());

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void aServerThatSaysRetryIsRetriedAsItsStatusAllows() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(502).header("x-should-retry", "true").build());

        assertThat(model.chat("Hi")).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(2);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void theCallerSeesLangChain4jsExceptionsNotTheHint() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(400).retryAfter("1").build());

        assertThatThrownBy(() -> model.chat("Hi")).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void theStepsOfAnExhaustedChainNameTheRateLimit() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("120").build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(429).retryAfter("120").build());

        assertThatThrownBy(() -> model.chat("Hi")).isInstanceOfSatisfying(AllModelsFailedException.class,
                failed -> assertThat(failed.steps()).extracting(StepFailure::outcome).extracting(Enum::name)
                        .containsExactly("RATE_LIMITED", "RATE_LIMITED"));
    }

    @Test
    void aStreamWithALongRetryAfterBeforeItsFirstTokenFallsOverAtOnce() throws Exception {
        AgentfuseLangChain4j realTime = AgentfuseLangChain4j.of(models.runtime(CONFIG), Scheduler.shared(), Sleeper.system());
        StreamingChatModel streaming = realTime.streamingChatModel("gpt-4o", models::streamingModelKeepingHeaders);
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(429).retryAfter("120").times(3).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("from ", "haiku").build());

        StreamRecorder stream = new StreamRecorder();
        streaming.chat("Hi", stream);

        assertThat(stream.response().aiMessage().text()).isEqualTo("from haiku");
        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(realTime.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aStreamRefusedAsABadRequestReportsLangChain4jsException() throws Exception {
        AgentfuseLangChain4j realTime = AgentfuseLangChain4j.of(models.runtime(CONFIG), Scheduler.shared(), Sleeper.system());
        StreamingChatModel streaming = realTime.streamingChatModel("gpt-4o", models::streamingModelKeepingHeaders);
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(400).retryAfter("1").build());
        StreamRecorder stream = new StreamRecorder();

        streaming.chat("Hi", stream);

        assertThat(stream.error()).isInstanceOf(InvalidRequestException.class);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }
}
