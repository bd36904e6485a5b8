package io.agentfuse.langchain4j;

import dev.langchain4j.model.chat.StreamingChatModel;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A LangChain4j stream is accounted like a stream of the gateway and of Spring AI: its whole
 * duration and its usage reach the breaker when it ends, so a slow stream counts for
 * {@code consecutiveTimeouts} and {@code slowCallRate}, and a token-heavy one for {@code tokenOveruse}.
 *
 * <p>The runtime runs on the system clock here, on purpose and without a race: the mock provider
 * waits {@value #PAUSE_MS} ms between the two pieces of each slow stream, so no stream can end
 * sooner than that after it began, however busy the machine; the threshold is far below it.
 */
class StreamAccountingParityTest {

    private static final long PAUSE_MS = 300;

    private static final String CONFIG = """
            retry: { maxAttempts: 1 }
            breakers:
              default:
                TRIGGER
                resetTimeout: 5m
            models:
              gpt-4o: { provider: openai, fallbacks: [null] }
            """;

    private final MockModels models = new MockModels();

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void twoSlowStreamsInARowTripConsecutiveTimeouts() throws Exception {
        CircuitBreaker breaker = streamTwiceSlowly("consecutiveTimeouts: { count: 2, slowerThan: 50ms }");

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("consecutiveTimeouts");
    }

    @Test
    void slowStreamsTripTheSlowCallRate() throws Exception {
        CircuitBreaker breaker = streamTwiceSlowly(
                "slowCallRate: { window: 2, minCalls: 2, threshold: 50%, slowerThan: 50ms }");

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("slowCallRate");
    }

    @Test
    void aStreamOverTheTokenLimitTripsTokenOveruseWhenItEnds() throws Exception {
        AgentfuseLangChain4j fuse = fuse("tokenOveruse: { maxTokensPerCall: 1000 }");
        models.mock.scriptForModel("gpt-4o", MockStep.builder().chunks("many ", "tokens").inputTokens(5000).build());

        assertThat(stream(fuse).response().aiMessage().text()).isEqualTo("many tokens");

        CircuitBreaker breaker = fuse.modelGuard("gpt-4o").circuitBreaker();
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("tokenOveruse");
    }

    /** Streams two answers that each pause {@link #PAUSE_MS} between their pieces; the model's breaker after. */
    private CircuitBreaker streamTwiceSlowly(String trigger) throws Exception {
        AgentfuseLangChain4j fuse = fuse(trigger);
        models.mock.scriptForModel("gpt-4o", MockStep.builder().chunks("slow ", "answer").chunkDelayMs(PAUSE_MS).times(2).build());

        for (int i = 0; i < 2; i++) {
            assertThat(stream(fuse).response().aiMessage().text()).isEqualTo("slow answer");
        }
        return fuse.modelGuard("gpt-4o").circuitBreaker();
    }

    private StreamRecorder stream(AgentfuseLangChain4j fuse) {
        StreamingChatModel model = fuse.streamingChatModel("gpt-4o", models::streamingModel);
        StreamRecorder recorder = new StreamRecorder();
        model.chat("Hi", recorder);
        return recorder;
    }

    private static AgentfuseLangChain4j fuse(String trigger) {
        AgentfuseRuntime runtime = AgentfuseRuntime.builder(
                ConfigLoader.parse(CONFIG.replace("TRIGGER", trigger), "agentfuse.yaml", Map.of())).build();
        return AgentfuseLangChain4j.of(runtime, Scheduler.shared(), Sleeper.system());
    }
}
