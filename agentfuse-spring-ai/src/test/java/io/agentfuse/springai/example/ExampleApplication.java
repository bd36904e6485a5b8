package io.agentfuse.springai.example;

import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ProviderConfig;
import io.agentfuse.springai.GuardedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.util.Map;

/**
 * The module README's example: a Spring Boot application whose {@link ChatModel} is
 * {@code gpt-4o} falling back to {@code gpt-4o-mini}, guarded as {@code agentfuse-example.yaml} says.
 * The auto-configuration supplies the {@link AgentfuseRuntime}; the OpenAI SDK's own retries are
 * off, so agentfuse alone retries.
 */
@SpringBootApplication
public class ExampleApplication {

    @Bean
    ChatModel chatModel(AgentfuseRuntime runtime) {
        ProviderConfig openai = runtime.config().providers().get("openai");
        return GuardedChatModel.of(runtime, "gpt-4o", Map.of(
                "gpt-4o", openAi(openai, "gpt-4o"),
                "gpt-4o-mini", openAi(openai, "gpt-4o-mini")));
    }

    private static ChatModel openAi(ProviderConfig provider, String model) {
        return OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder()
                        .baseUrl(provider.baseUrl().toString())
                        .apiKey(provider.apiKey())
                        .model(model)
                        .maxRetries(0)
                        .build())
                .build();
    }

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
