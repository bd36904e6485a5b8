package io.agentfuse.springai;

import io.agentfuse.core.budget.CachedTokens;
import org.junit.jupiter.api.Test;
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a Spring AI usage's prompt count holds its cached tokens is its provider's: Anthropic's
 * leaves them beside it, OpenAI's holds them. A tool-calling loop sums its turns' usage into one
 * without the provider's native usage, so the model that answered tells it.
 */
class SpringAiUsageTest {

    /** What Spring AI's Anthropic model sums for a tool-calling loop: no native usage, the cache beside the prompt. */
    private static final DefaultUsage SUMMED_ANTHROPIC = new DefaultUsage(50_000, 1_000, 51_000, null, 10_000L, 0L);

    private final AnthropicChatModel claude = AnthropicChatModel.builder()
            .options(AnthropicChatOptions.builder().apiKey("sk-test").model("claude-sonnet-4-5").build()).build();

    @Test
    void anAnthropicModelsCachedTokensAreAddedToItsPromptTokens() {
        SpringAiUsage usage = SpringAiUsage.of(SUMMED_ANTHROPIC, claude);

        assertThat(usage.inputTokens()).isEqualTo(60_000);
        assertThat(usage.cached()).isEqualTo(CachedTokens.ofReads(10_000));
        assertThat(usage.totalTokens()).isEqualTo(61_000);
    }

    @Test
    void anotherProvidersCachedTokensAreWithinItsPromptTokens() {
        SpringAiUsage usage = SpringAiUsage.of(SUMMED_ANTHROPIC, MockModels.model("gpt-5", "http://127.0.0.1:1/v1"));

        assertThat(usage.inputTokens()).isEqualTo(50_000);
        assertThat(usage.cached()).isEqualTo(CachedTokens.ofReads(10_000));
    }

    @Test
    void cachedTokensBeyondThePromptsAreBesideIt() {
        SpringAiUsage usage = SpringAiUsage.of(new DefaultUsage(3_000, 1_000, 4_000, null, 95_000L, 2_000L), null);

        assertThat(usage.inputTokens()).isEqualTo(100_000);
        assertThat(usage.cached()).isEqualTo(new CachedTokens(95_000, 2_000, 0));
    }

    /** Regression: the breaker's tokenOveruse trigger counted a Claude Code-like turn as 4 000 tokens. */
    @Test
    void theBreakersTokensCountTheInputTheCacheServedOrKept() {
        ChatResponse cached = new ChatResponse(List.of(new Generation(new AssistantMessage("a"))), ChatResponseMetadata.builder()
                .usage(new DefaultUsage(3_000, 1_000, 4_000, null, 95_000L, 2_000L)).build());

        assertThat(ChatTokens.used(cached)).isEqualTo(101_000);
    }
}
