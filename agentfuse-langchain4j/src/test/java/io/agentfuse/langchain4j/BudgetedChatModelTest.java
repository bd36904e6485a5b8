package io.agentfuse.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import io.agentfuse.agent.budget.BudgetExceededException;
import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.agent.budget.TokenEstimate;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A guarded LangChain4j chat model under a {@link TokenBudget}: reserve, call, settle, refuse. */
class BudgetedChatModelTest {

    private static final String CONFIG = """
            retry: { maxAttempts: 1 }
            models:
              gpt-4o: { provider: openai, fallbacks: [claude-haiku-4-5] }
              claude-haiku-4-5: { provider: anthropic }
            """;

    private final MockModels models = new MockModels();
    private final AgentfuseLangChain4j fuse = models.fuse(CONFIG);
    private final LocalBudgetLedger ledger = new LocalBudgetLedger(models.clock);

    @AfterEach
    void stop() {
        models.close();
    }

    private ChatModel model(TokenBudget budget) {
        return fuse.chatModel("gpt-4o", models::chatModel, budget, "session-1");
    }

    private WindowTally window() {
        return ledger.windows(models.clock.epochMillis()).toCompletableFuture().join().get(0);
    }

    @Test
    void aSessionThatSpentItsTokensIsRefusedBeforeAnyModelIsCalled() {
        models.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
        ChatModel model = model(TokenBudget.builder("per-session").tokens(300).ledger(ledger).clock(models.clock).build());
        for (int i = 0; i < 3; i++) {
            model.chat("Hi");
        }

        assertThatThrownBy(() -> model.chat("Hi")).isInstanceOfSatisfying(BudgetExceededException.class,
                refused -> assertThat(refused.scopeValue()).isEqualTo("session-1"));
        assertThat(models.requestsFor("gpt-4o")).isEqualTo(3);
        assertThat(window().spent().tokens()).isEqualTo(300);
    }

    @Test
    void anAnswerIsChargedAtThePriceOfTheModelThatGaveIt() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        models.mock.scriptForModel("claude-haiku-4-5", MockStep.builder().inputTokens(1_000).outputTokens(1_000).build());
        ChatModel model = model(TokenBudget.builder("dollars").cost(new BigDecimal("1")).ledger(ledger).clock(models.clock).build());

        model.chat("Hi");

        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.of("1", "5").costNanos(1_000, 1_000));
        assertThat(window().reserved().isZero()).isTrue();
    }

    @Test
    void aCallThatFailsGivesItsReservationBack() {
        models.mock.defaultStep(MockStep.builder().status(500).build());
        ChatModel model = model(TokenBudget.builder("per-session").tokens(300).ledger(ledger).clock(models.clock).build());

        assertThatThrownBy(() -> model.chat("Hi")).isInstanceOf(AllModelsFailedException.class);

        assertThat(window().spent().isZero()).isTrue();
        assertThat(window().reserved().isZero()).isTrue();
    }

    /** Regression: an answer without an account of its tokens was charged nothing. */
    @Test
    void anAnswerThatTellsNoTokensIsChargedItsReservation() {
        models.mock.defaultStep(MockStep.builder().inputTokens(0).outputTokens(0).build());
        ChatModel model = model(TokenBudget.builder("per-session").tokens(100_000).ledger(ledger).clock(models.clock).build());

        model.chat("Hi");

        assertThat(window().spent().tokens()).isGreaterThan(TokenEstimate.DEFAULT_OUTPUT_TOKENS);
        assertThat(window().reserved().isZero()).isTrue();
    }
}
