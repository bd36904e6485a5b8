package io.agentfuse.springai;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.ManualClock;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

import java.time.Duration;
import java.util.Map;

/**
 * The scriptable mock provider on loopback, real Spring AI OpenAI chat models pointed at it, and an
 * agentfuse runtime on a manual clock. The OpenAI SDK's own retries are off ({@code maxRetries(0)}),
 * so every retry seen is agentfuse's.
 */
final class MockModels implements AutoCloseable {

    /** Two models; the primary falls back to the other; 3 attempts waiting 1 s, 2 s; breakers trip after 3 5xx. */
    static final String CONFIG = """
            providers:
              openai: { type: openai, baseUrl: "http://127.0.0.1:1/v1", apiKey: "sk-test" }
            retry:
              maxAttempts: 3
              initialDelay: 1s
              multiplier: 2
              maxDelay: 30s
            breakers:
              default:
                consecutive5xx: 3
                consecutive429: 2
                tokenOveruse: { maxTokensPerCall: 1000 }
                resetTimeout: 5m
            models:
              gpt-4o: { provider: openai, fallbacks: [gpt-4o-mini] }
              gpt-4o-mini: { provider: openai }
            """;

    final Vertx vertx = Vertx.vertx();
    final MockProvider mock = MockProvider.start(vertx, 0).await();
    final ManualClock clock = new ManualClock();

    AgentfuseRuntime runtime(String yaml) {
        return AgentfuseRuntime.builder(ConfigLoader.parse(yaml, "test.yaml", Map.of()))
                .manualClock(clock)
                .tokens(ChatTokens::used)
                .build();
    }

    OpenAiChatModel model(String name) {
        return model(name, mock.openAiBaseUrl());
    }

    static OpenAiChatModel model(String name, String baseUrl) {
        return model(name, baseUrl, false);
    }

    /** A model called {@code name} at {@code baseUrl}; with {@code streamUsage}, its streams end with their usage. */
    static OpenAiChatModel model(String name, String baseUrl, boolean streamUsage) {
        return OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder()
                        .baseUrl(baseUrl)
                        .apiKey("sk-test")
                        .model(name)
                        .streamUsage(streamUsage)
                        .maxRetries(0)
                        .timeout(Duration.ofSeconds(10))
                        .build())
                .build();
    }

    GuardedChatModel guarded(AgentfuseRuntime runtime) {
        return GuardedChatModel.of(runtime, "gpt-4o", Map.of("gpt-4o", model("gpt-4o"), "gpt-4o-mini", model("gpt-4o-mini")));
    }

    @Override
    public void close() {
        mock.close().await();
        vertx.close().await();
    }
}
