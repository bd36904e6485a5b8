package io.agentfuse.langchain4j;

import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ConfigLoader;
import io.agentfuse.core.ManualClock;
import io.agentfuse.mock.MockProvider;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.Map;

/**
 * The real LangChain4j OpenAI and Anthropic models, pointed at the scriptable mock provider on
 * loopback, with {@code maxRetries(0)} so that only agentfuse retries; and a runtime built from
 * YAML on a {@link ManualClock}. Models whose name starts with {@code claude} speak Anthropic,
 * the others OpenAI; each sends its own name as the upstream model, so the mock can be scripted per model.
 */
final class MockModels implements AutoCloseable {

    final Vertx vertx = Vertx.vertx();
    final MockProvider mock = MockProvider.start(vertx, 0).await();
    final ManualClock clock = new ManualClock();

    /** A blocking model called {@code name}, on LangChain4j's own HTTP client. */
    ChatModel chatModel(String name) {
        return chatModel(name, null);
    }

    /** A blocking model called {@code name} on {@link HeaderKeepingHttpClientBuilder}'s client. */
    ChatModel chatModelKeepingHeaders(String name) {
        return chatModel(name, new HeaderKeepingHttpClientBuilder());
    }

    private ChatModel chatModel(String name, HttpClientBuilder http) {
        if (name.startsWith("claude")) {
            return AnthropicChatModel.builder().baseUrl(mock.anthropicBaseUrl() + "/v1/").apiKey("sk-test")
                    .httpClientBuilder(http).modelName(name).maxRetries(0).timeout(Duration.ofSeconds(20)).build();
        }
        return OpenAiChatModel.builder().baseUrl(mock.openAiBaseUrl()).apiKey("sk-test").modelName(name)
                .httpClientBuilder(http).maxRetries(0).timeout(Duration.ofSeconds(20)).build();
    }

    /** A streaming model called {@code name}, on LangChain4j's own HTTP client. */
    StreamingChatModel streamingModel(String name) {
        return streamingModel(name, null);
    }

    /** A streaming model called {@code name} on {@link HeaderKeepingHttpClientBuilder}'s client. */
    StreamingChatModel streamingModelKeepingHeaders(String name) {
        return streamingModel(name, new HeaderKeepingHttpClientBuilder());
    }

    private StreamingChatModel streamingModel(String name, HttpClientBuilder http) {
        if (name.startsWith("claude")) {
            return AnthropicStreamingChatModel.builder().baseUrl(mock.anthropicBaseUrl() + "/v1/").apiKey("sk-test")
                    .httpClientBuilder(http).modelName(name).timeout(Duration.ofSeconds(20)).build();
        }
        return OpenAiStreamingChatModel.builder().baseUrl(mock.openAiBaseUrl()).apiKey("sk-test").modelName(name)
                .httpClientBuilder(http).timeout(Duration.ofSeconds(20)).build();
    }

    /** A runtime of {@code yaml} on this fixture's clock. */
    AgentfuseRuntime runtime(String yaml) {
        return AgentfuseRuntime.builder(ConfigLoader.parse(yaml, "agentfuse.yaml", Map.of())).manualClock(clock).build();
    }

    /** The decorators of {@code yaml}'s runtime, on this fixture's clock. */
    AgentfuseLangChain4j fuse(String yaml) {
        return AgentfuseLangChain4j.of(runtime(yaml), clock);
    }

    /** How many requests the mock received for {@code model}. */
    int requestsFor(String model) {
        return mock.requestsFor(model).size();
    }

    @Override
    public void close() {
        mock.close().await();
        vertx.close().await();
    }
}
