package io.agentfuse.langchain4j;

import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.model.chat.StreamingChatModel;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded streaming model over LangChain4j's real streaming clients and the mock provider.
 * Breakers run on the fixture's manual clock; retries wait 0 s on the shared scheduler, so they
 * need nobody to move time, except in the first-token tests, which drive the timer by hand.
 */
class GuardedStreamingChatModelTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 3, initialDelay: 0s }
            breakers:
              default:
                consecutive5xx: 3
                consecutiveErrors: 5
                tokenOveruse: { maxTokensPerCall: 1000 }
                resetTimeout: 5m
            models:
              gpt-4o: { provider: openai, fallbacks: [claude-haiku-4-5], firstTokenTimeout: 5s }
              claude-haiku-4-5: { provider: anthropic }
            """;

    private final MockModels models = new MockModels();
    private final AgentfuseLangChain4j fuse = AgentfuseLangChain4j.of(models.runtime(CONFIG), Scheduler.shared(), Sleeper.system());
    private final StreamingChatModel model = fuse.streamingChatModel("gpt-4o", models::streamingModel);

    @AfterEach
    void stop() {
        models.close();
    }

    private StreamRecorder stream(StreamingChatModel streaming) {
        StreamRecorder recorder = new StreamRecorder();
        streaming.chat("Hi", recorder);
        return recorder;
    }

    @Test
    void streamsThePrimarysAnswer() throws Exception {
        StreamRecorder stream = stream(model);

        assertThat(stream.response().aiMessage().text()).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(stream.text()).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void failuresBeforeTheFirstTokenAreRetriedThenFallBackAndTripThePrimary() throws Exception {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("from ", "haiku").build());

        StreamRecorder stream = stream(model);

        assertThat(stream.response().aiMessage().text()).isEqualTo("from haiku");
        assertThat(stream.text()).as("only the model that answered is heard").isEqualTo("from haiku");
        assertThat(models.requestsFor("gpt-4o")).isEqualTo(3);
        assertThat(fuse.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aFailureAfterTheFirstTokenIsReportedNotRetriedAndCountedByTheBreaker() throws Exception {
        AgentfuseLangChain4j strict = AgentfuseLangChain4j.of(models.runtime(CONFIG.replace("consecutiveErrors: 5",
                "consecutiveErrors: 1")), Scheduler.shared(), Sleeper.system());
        StreamingChatModel breaking = strict.streamingChatModel("gpt-4o", models::streamingModel);
        models.mock.scriptForModel("gpt-4o", MockStep.builder().chunks("Hel", "lo").chunkDelayMs(60_000).build());

        StreamRecorder stream = stream(breaking);
        assertThat(stream.awaitFirstPiece()).isEqualTo("Hel");
        assertThat(strict.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.CLOSED);
        models.mock.close().await(); // the provider goes away mid-answer

        assertThat(stream.error()).isNotNull();
        assertThat(stream.text()).isEqualTo("Hel");
        assertThat(models.requestsFor("gpt-4o")).as("never retried once text was out").isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).as("nor fallen back").isZero();
        assertThat(strict.modelGuard("gpt-4o").circuitBreaker().state()).as("the stream's end was recorded against its permit")
                .isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aStreamOverTheTokenLimitTripsTheBreakerWhenItEnds() throws Exception {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().inputTokens(5000).build());

        assertThat(stream(model).response().aiMessage().text()).isEqualTo(MockStep.DEFAULT_TEXT);

        assertThat(fuse.modelGuard("gpt-4o").circuitBreaker().state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aBadRequestIsReportedAsItIsWithoutRetryOrFallback() throws Exception {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(400).times(3).build());

        assertThat(stream(model).error()).isInstanceOf(InvalidRequestException.class);

        assertThat(models.requestsFor("gpt-4o")).isEqualTo(1);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }

    @Test
    void whenEveryModelFailsBeforeItsFirstTokenTheHandlerHearsWhy() throws Exception {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).times(3).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().status(500).times(3).build());

        assertThat(stream(model).error()).isInstanceOf(AllModelsFailedException.class)
                .hasMessageContaining("gpt-4o failed").hasMessageContaining("claude-haiku-4-5 failed");
    }

    @Test
    void aModelSilentPastItsFirstTokenTimeoutIsGivenUpAndTheNextAnswers() throws Exception {
        AgentfuseLangChain4j manual = models.fuse(CONFIG.replace("maxAttempts: 3", "maxAttempts: 1"));
        StreamingChatModel timed = manual.streamingChatModel("gpt-4o", models::streamingModel);
        models.mock.scriptForModel("gpt-4o", MockStep.builder().firstChunkDelayMs(30_000).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().chunks("quick").build());

        StreamRecorder stream = stream(timed);
        models.clock.advance(Duration.ofSeconds(5)); // the primary's firstTokenTimeout, armed when chat() began

        assertThat(stream.response().aiMessage().text()).isEqualTo("quick");
        assertThat(stream.text()).isEqualTo("quick");
        assertThat(models.requestsFor("claude-haiku-4-5")).isEqualTo(1);
    }

    @Test
    void theFirstTokenTimeoutDoesNotFireBeforeItIsDue() throws Exception {
        AgentfuseLangChain4j manual = models.fuse(CONFIG.replace("maxAttempts: 3", "maxAttempts: 1"));
        StreamingChatModel timed = manual.streamingChatModel("gpt-4o", models::streamingModel);

        StreamRecorder stream = stream(timed);
        models.clock.advance(Duration.ofMillis(4_999));

        assertThat(stream.response().aiMessage().text()).isEqualTo(MockStep.DEFAULT_TEXT);
        assertThat(models.requestsFor("claude-haiku-4-5")).isZero();
    }
}
