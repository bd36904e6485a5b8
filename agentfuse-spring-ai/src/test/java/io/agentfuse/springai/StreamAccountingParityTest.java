package io.agentfuse.springai;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.mock.MockProvider;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring AI stream is accounted like a stream of the gateway and of LangChain4j: its whole
 * duration and its usage reach the breaker when it ends, so a slow stream counts for
 * {@code consecutiveTimeouts} and {@code slowCallRate}, and a token-heavy one for {@code tokenOveruse}.
 *
 * <p>The runtime runs on the system clock here, on purpose and without a race: the mock provider
 * waits {@value #PAUSE_MS} ms between the two pieces of each slow stream, so no stream can end
 * sooner than that after it began, however busy the machine; the threshold is far below it.
 */
class StreamAccountingParityTest {

    private static final long PAUSE_MS = 300;
    private static final Duration NEVER = Duration.ofSeconds(30);

    private static final String CONFIG = """
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:1/v1", apiKey: "sk-test" }
            retry: { maxAttempts: 1 }
            breakers:
              default:
                TRIGGER
                resetTimeout: 5m
            models:
              gpt-4o: { provider: openai }
            """;

    private final MockModels models = new MockModels(); // the mock provider; this test's runtimes use the system clock
    private final MockProvider mock = models.mock;

    @AfterEach
    void close() {
        models.close();
    }

    @Test
    void twoSlowStreamsInARowTripConsecutiveTimeouts() {
        CircuitBreaker breaker = streamTwiceSlowly("consecutiveTimeouts: { count: 2, slowerThan: 50ms }");

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("consecutiveTimeouts");
    }

    @Test
    void slowStreamsTripTheSlowCallRate() {
        CircuitBreaker breaker = streamTwiceSlowly(
                "slowCallRate: { window: 2, minCalls: 2, threshold: 50%, slowerThan: 50ms }");

        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("slowCallRate");
    }

    @Test
    void aStreamOverTheTokenLimitTripsTokenOveruseWhenItEnds() {
        AgentfuseRuntime runtime = runtime("tokenOveruse: { maxTokensPerCall: 1000 }");
        mock.scriptForModel("gpt-4o", MockStep.builder().chunks("many ", "tokens").inputTokens(5000).build());

        List<ChatResponse> chunks = guarded(runtime).stream(new Prompt("Hi")).collectList().block(NEVER);

        assertThat(chunks).isNotEmpty();
        CircuitBreaker breaker = runtime.registry().breaker("model:gpt-4o");
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.snapshot().reason()).contains("tokenOveruse");
    }

    /** Streams two answers that each pause {@link #PAUSE_MS} between their pieces; the model's breaker after. */
    private CircuitBreaker streamTwiceSlowly(String trigger) {
        AgentfuseRuntime runtime = runtime(trigger);
        mock.scriptForModel("gpt-4o", MockStep.builder().chunks("slow ", "answer").chunkDelayMs(PAUSE_MS).times(2).build());
        ChatModel chat = guarded(runtime);

        for (int i = 0; i < 2; i++) {
            assertThat(chat.stream(new Prompt("Hi")).collectList().block(NEVER)).isNotEmpty();
        }
        return runtime.registry().breaker("model:gpt-4o");
    }

    private AgentfuseRuntime runtime(String trigger) {
        return AgentfuseRuntime.builder(ConfigLoader.parse(CONFIG.replace("TRIGGER", trigger), "test.yaml", Map.of()))
                .tokens(ChatTokens::used)
                .build();
    }

    private GuardedChatModel guarded(AgentfuseRuntime runtime) {
        // The provider reports a stream's usage in its last chunk only when asked to.
        OpenAiChatModel model = MockModels.model("gpt-4o", mock.openAiBaseUrl(), true);
        return GuardedChatModel.builder().model("gpt-4o", runtime.modelGuard("gpt-4o"), model).build();
    }
}
