package io.agentfuse.springai;

import io.agentfuse.agent.budget.BudgetExceededException;
import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.agent.budget.TokenEstimate;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ModelPrice;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A guarded Spring AI chat model under a {@link TokenBudget}: reserve, call, settle, refuse; streams too. */
class BudgetedChatModelTest {

    private final MockModels models = new MockModels();
    private final AgentfuseRuntime runtime = models.runtime(MockModels.CONFIG.replace("maxAttempts: 3", "maxAttempts: 1"));
    private final LocalBudgetLedger ledger = new LocalBudgetLedger(models.clock);

    @AfterEach
    void stop() {
        models.close();
    }

    private GuardedChatModel chat(TokenBudget budget, boolean streamUsage) {
        return GuardedChatModel.of(runtime, "gpt-4o", Map.of(
                "gpt-4o", MockModels.model("gpt-4o", models.mock.openAiBaseUrl(), streamUsage),
                "gpt-4o-mini", MockModels.model("gpt-4o-mini", models.mock.openAiBaseUrl(), streamUsage)), budget, "session-1");
    }

    private TokenBudget tokens(long limit) {
        return TokenBudget.builder("per-session").tokens(limit).window(Duration.ofDays(1)).ledger(ledger).clock(models.clock).build();
    }

    private WindowTally window() {
        return ledger.windows(models.clock.epochMillis()).toCompletableFuture().join().get(0);
    }

    @Test
    void aSessionThatSpentItsTokensIsRefusedBeforeAnyModelIsCalled() {
        models.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
        GuardedChatModel chat = chat(tokens(200), false);
        chat.call(new Prompt("Hello"));
        chat.call(new Prompt("Hello"));

        assertThatThrownBy(() -> chat.call(new Prompt("Hello"))).isInstanceOf(BudgetExceededException.class);
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(2);
        assertThat(window().spent().tokens()).isEqualTo(200);
    }

    @Test
    void anAnswerIsChargedAtThePriceOfTheModelThatGaveIt() {
        models.mock.scriptForModel("gpt-4o", MockStep.builder().status(500).build());
        models.mock.scriptForModel("gpt-4o-mini", MockStep.builder().inputTokens(1_000).outputTokens(1_000).build());
        TokenBudget dollars = TokenBudget.builder("dollars").cost(new BigDecimal("1")).ledger(ledger).clock(models.clock).build();

        chat(dollars, false).call(new Prompt("Hello"));

        assertThat(window().spent().costNanos()).isEqualTo(ModelPrice.of("0.15", "0.60").costNanos(1_000, 1_000));
    }

    @Test
    void aStreamSettlesWithTheUsageItReportsAtItsEnd() {
        models.mock.defaultStep(MockStep.builder().chunks("Hel", "lo").inputTokens(10).outputTokens(40).build());
        GuardedChatModel chat = chat(tokens(1_000), true);

        List<ChatResponse> chunks = chat.stream(new Prompt("Hello")).collectList().block(Duration.ofSeconds(30));

        assertThat(chunks).isNotEmpty();
        assertThat(window().spent().tokens()).isEqualTo(50);
        assertThat(window().reserved().isZero()).isTrue();
    }

    @Test
    void aStreamOfASpentBudgetFailsBeforeAnyModelIsCalled() {
        models.mock.defaultStep(MockStep.builder().inputTokens(10).outputTokens(90).build());
        GuardedChatModel chat = chat(tokens(100), true);
        chat.call(new Prompt("Hello"));

        assertThatThrownBy(() -> chat.stream(new Prompt("Hello")).blockLast(Duration.ofSeconds(30)))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(models.mock.requestsFor("gpt-4o")).hasSize(1);
    }

    /** Regression: an answer without an account of its tokens was charged nothing. */
    @Test
    void anAnswerThatTellsNoTokensIsChargedItsReservation() {
        models.mock.defaultStep(MockStep.builder().inputTokens(0).outputTokens(0).build());

        chat(tokens(100_000), false).call(new Prompt("Hello"));

        assertThat(window().spent().tokens()).isGreaterThan(TokenEstimate.DEFAULT_OUTPUT_TOKENS);
        assertThat(window().reserved().isZero()).isTrue();
    }

    /** Regression: a stream whose client does not ask for its usage (the default) was charged nothing. */
    @Test
    void aStreamThatReportsNoUsageIsChargedItsReservation() {
        models.mock.defaultStep(MockStep.builder().chunks("Hel", "lo").build());

        chat(tokens(100_000), false).stream(new Prompt("Hello")).collectList().block(Duration.ofSeconds(30));

        assertThat(window().spent().tokens()).isGreaterThan(TokenEstimate.DEFAULT_OUTPUT_TOKENS);
        assertThat(window().reserved().isZero()).isTrue();
    }
}
