package io.agentfuse.springai;

import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatResponse;

/**
 * Counts the tokens a Spring AI answer used, from {@code ChatResponse.getMetadata().getUsage()}
 * (the provider's own count), for the breaker's {@code tokenOveruse} trigger. Give it to the
 * runtime that builds the model guards:
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(config).tokens(ChatTokens::used).build();
 * }</pre>
 *
 * Stateless and thread-safe.
 */
public final class ChatTokens {

    private ChatTokens() {
    }

    /**
     * The tokens {@code result} used — every token read, from the prompt cache or not, and written
     * ({@link SpringAiUsage#totalTokens()}) — when it is a {@link ChatResponse} that reports usage; 0
     * otherwise (nothing known, nothing held against the model).
     */
    public static long used(Object result) {
        if (!(result instanceof ChatResponse response)) {
            return 0L;
        }
        ChatResponseMetadata metadata = response.getMetadata();
        return SpringAiUsage.of(metadata == null ? null : metadata.getUsage(), null).totalTokens();
    }
}
