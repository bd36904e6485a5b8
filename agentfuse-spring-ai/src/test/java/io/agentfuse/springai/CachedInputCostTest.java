package io.agentfuse.springai;

import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.Prompt;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded Spring AI model's cost budget prices the input its provider's prompt cache served or kept
 * at the vendor's cache prices, as the gateway does for the same answer (the gateway's
 * {@code CachedInputCostTest} has the same turns and figures), whether the provider's prompt count
 * holds the cached tokens (OpenAI) or leaves them beside it (Anthropic). A Claude Code-like turn
 * reads most of its input from the cache: Spring AI's Anthropic prompt count alone was a fraction
 * of its tokens, and OpenAI's cached tokens were charged at the input price.
 */
class CachedInputCostTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 1 }
            subagents: { fallbacks: [] }
            models:
              claude-sonnet-4-5: { provider: anthropic }
              gpt-5: { provider: openai }
            """;

    /** 100 000 tokens in, of which 95 000 read from the cache and 2 000 written to it; 1 000 out. */
    private static final MockStep CLAUDE_TURN = MockStep.builder().inputTokens(100_000).cacheReadTokens(95_000)
            .cacheWriteTokens(2_000).outputTokens(1_000).build();

    /** The same turn as OpenAI reports one: 95 000 of its prompt's tokens cached (it bills no write). */
    private static final MockStep OPENAI_TURN = MockStep.builder().inputTokens(100_000).cacheReadTokens(95_000)
            .outputTokens(1_000).build();

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(CONFIG);
    private final LocalBudgetLedger ledger = new LocalBudgetLedger(models.clock);

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void aClaudeTurnReadMostlyFromTheCacheSpendsWhatTheGatewaySpendsForIt() {
        models.mock.defaultStep(CLAUDE_TURN);

        chat("claude-sonnet-4-5", claude()).call(new Prompt("Hi"));

        // 3 000 x $3 + 95 000 x $0.30 + 2 000 x $3.75 + 1 000 x $15 per million = $0.06 (at $3 for all input, $0.315)
        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.nanosOf(new BigDecimal("0.06")));
        assertThat(window().spent().tokens()).as("every token read counts, from the cache or not").isEqualTo(101_000);
    }

    /** Spring AI reads a stream's cache counts from its {@code message_delta}, which repeats them (cumulative). */
    @Test
    void aStreamedClaudeTurnReadMostlyFromTheCacheSpendsWhatTheGatewaySpendsForIt() {
        models.mock.defaultStep(CLAUDE_TURN);

        chat("claude-sonnet-4-5", claude()).stream(new Prompt("Hi")).blockLast();

        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.nanosOf(new BigDecimal("0.06")));
        assertThat(window().spent().tokens()).isEqualTo(101_000);
    }

    @Test
    void aGpt5TurnReadMostlyFromTheCacheSpendsWhatTheGatewaySpendsForIt() {
        models.mock.defaultStep(OPENAI_TURN);

        chat("gpt-5", MockModels.model("gpt-5", models.mock.openAiBaseUrl())).call(new Prompt("Hi"));

        // 5 000 x $1.25 + 95 000 x $0.125 + 1 000 x $10 per million = $0.028125 (at $1.25 for all input, $0.135)
        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.nanosOf(new BigDecimal("0.028125")));
        assertThat(window().spent().tokens()).isEqualTo(101_000);
    }

    @Test
    void aStreamedGpt5TurnReadMostlyFromTheCacheSpendsWhatTheGatewaySpendsForIt() {
        models.mock.defaultStep(OPENAI_TURN);

        chat("gpt-5", MockModels.model("gpt-5", models.mock.openAiBaseUrl(), true)).stream(new Prompt("Hi")).blockLast();

        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.nanosOf(new BigDecimal("0.028125")));
    }

    /** Spring AI's Anthropic model, on the Anthropic SDK, at the mock; the SDK's own retries off. */
    private AnthropicChatModel claude() {
        return AnthropicChatModel.builder().options(AnthropicChatOptions.builder().baseUrl(models.mock.anthropicBaseUrl())
                .apiKey("sk-test").model("claude-sonnet-4-5").maxTokens(1_024).maxRetries(0)
                .timeout(Duration.ofSeconds(10)).build()).build();
    }

    private GuardedChatModel chat(String name, ChatModel model) {
        TokenBudget budget = TokenBudget.builder("dollars").cost(new BigDecimal("50")).ledger(ledger).clock(models.clock).build();
        return GuardedChatModel.of(runtime, name, Map.of(name, model), budget, "session-1");
    }

    private WindowTally window() {
        return ledger.windows(models.clock.epochMillis()).toCompletableFuture().join().get(0);
    }
}
