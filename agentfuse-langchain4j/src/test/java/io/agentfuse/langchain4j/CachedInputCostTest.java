package io.agentfuse.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded LangChain4j model's cost budget prices the input its provider's prompt cache served or
 * kept at the vendor's cache prices, as the gateway does for the same answer (the gateway's
 * {@code CachedInputCostTest} has the same turns and figures). A Claude Code-like turn reads most of
 * its input from the cache: counted at the input price, a $50 budget stopped after about $8 of spend;
 * and LangChain4j's Anthropic input count leaves the cache out, so a token budget counted a fraction.
 */
class CachedInputCostTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 1 }
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
    private final AgentfuseLangChain4j fuse = models.fuse(CONFIG);
    private final LocalBudgetLedger ledger = new LocalBudgetLedger(models.clock);

    @AfterEach
    void stop() {
        models.close();
    }

    @Test
    void aClaudeTurnReadMostlyFromTheCacheSpendsWhatTheGatewaySpendsForIt() {
        models.mock.defaultStep(CLAUDE_TURN);

        model("claude-sonnet-4-5").chat("Hi");

        // 3 000 x $3 + 95 000 x $0.30 + 2 000 x $3.75 + 1 000 x $15 per million = $0.06 (at $3 for all input, $0.315)
        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.nanosOf(new BigDecimal("0.06")));
        assertThat(window().spent().tokens()).as("every token read counts, from the cache or not").isEqualTo(101_000);
    }

    @Test
    void aGpt5TurnReadMostlyFromTheCacheSpendsWhatTheGatewaySpendsForIt() {
        models.mock.defaultStep(OPENAI_TURN);

        model("gpt-5").chat("Hi");

        // 5 000 x $1.25 + 95 000 x $0.125 + 1 000 x $10 per million = $0.028125 (at $1.25 for all input, $0.135)
        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.nanosOf(new BigDecimal("0.028125")));
        assertThat(window().spent().tokens()).isEqualTo(101_000);
    }

    private ChatModel model(String name) {
        TokenBudget budget = TokenBudget.builder("dollars").cost(new BigDecimal("50")).ledger(ledger).clock(models.clock).build();
        return fuse.chatModel(name, models::chatModel, budget, "session-1");
    }

    private WindowTally window() {
        return ledger.windows(models.clock.epochMillis()).toCompletableFuture().join().get(0);
    }
}
