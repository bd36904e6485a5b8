package io.agentfuse.agent.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.agent.context.CompactionReport;
import io.agentfuse.agent.context.CompactionStrategy;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.ContextBudget;
import io.agentfuse.agent.context.ContextConfig;
import io.agentfuse.agent.context.ContextLevel;
import io.agentfuse.agent.context.ContextWindowFullException;
import io.agentfuse.agent.conversation.Conversation;
import io.agentfuse.agent.conversation.Message;
import io.agentfuse.agent.permission.PermissionBreaker;
import io.agentfuse.agent.permission.PermissionConfig;
import io.agentfuse.agent.permission.PermissionDecision;
import io.agentfuse.agent.permission.ToolCall;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.agent.tokens.UsageAwareTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The module README's examples, with the same calls, so that they keep compiling and working. */
class ReadmeExamplesTest {

    private final List<String> shown = new ArrayList<>();
    private final List<Conversation> sentOn = new ArrayList<>();
    private final List<CompactionReport> logged = new ArrayList<>();
    private boolean userAnswersYes;

    @Test
    void permissionBreakerExample() {
        PermissionBreaker breaker = PermissionBreaker.builder()
                .config(PermissionConfig.defaults())                     // 3 in a row, 20 in all, per category
                .autoApproveWhen(call -> !call.name().equals("Bash"))    // the agent's own policy
                .build();

        ToolCall call = new ToolCall("Edit", "src/Main.java");
        PermissionDecision decision = breaker.decide(call);
        switch (decision.verdict()) {
            case AUTO_APPROVE -> breaker.recordApproved(call, false);    // ran without asking
            case ASK -> {
                if (userConfirms(call)) breaker.recordApproved(call, true);
                else breaker.recordDenied(call);
            }
            case DENY -> show(decision.reason());
        }
        Map<String, Object> saved = breaker.snapshot().toMap();          // persist with the session

        assertThat(saved).containsEntry("state", "CLOSED");
        assertThat(shown).isEmpty();
    }

    @Test
    void contextLadderExample() {
        ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), 200_000);

        assertThat(budget.levelOf(139_999)).isEqualTo(ContextLevel.NORMAL);
        assertThat(budget.levelOf(140_000)).isEqualTo(ContextLevel.WARNING);
        assertThat(budget.levelOf(160_000)).isEqualTo(ContextLevel.AUTO_COMPACT);
        assertThat(budget.levelOf(184_000)).isEqualTo(ContextLevel.SNIP_COMPACT);
        assertThat(budget.levelOf(190_000)).isEqualTo(ContextLevel.REJECT);
    }

    @Test
    void compactionExample() {
        ContextBudget budget = ContextBudget.of(ContextConfig.defaults(), 200_000);

        Compactor compactor = Compactor.builder(budget, TokenCounter.forModel("claude-sonnet-4"))
                .summarizer((older, maxTokens) -> summarize(older, maxTokens))  // CompletionStage<String>
                .build();
        Conversation conversation = longSession(compactor);

        compactor.compact(conversation).whenComplete((result, error) -> {
            if (error instanceof ContextWindowFullException full) {
                reject(413, full.usedTokens(), full.windowTokens());
            } else {
                send(result.conversation());
                log(result.report());
            }
        }).toCompletableFuture().join();

        assertThat(logged).singleElement().extracting(CompactionReport::strategy).isEqualTo(CompactionStrategy.SUMMARY);
        assertThat(sentOn.get(0).size()).isLessThan(conversation.size());
    }

    @Test
    void tokenCountingExample() {
        Conversation sent = Conversation.of(Message.user("hello"));
        Message reply = Message.assistant("hi");
        Message question = Message.user("how are you?");
        int inputTokensReportedByTheProvider = 1_000;

        assertThat(TokenCounter.forModel("gpt-4o").countText("hello world")).isEqualTo(2);
        UsageAwareTokenCounter counter = new UsageAwareTokenCounter(TokenCounter.forModel("claude-sonnet-4"));
        counter.recordPromptTokens(sent, inputTokensReportedByTheProvider);
        int next = counter.countConversation(sent.append(reply).append(question));

        assertThat(next).isGreaterThan(1_000);
    }

    // A long refactoring session, grown turn by turn until it reaches AUTO_COMPACT.
    private static Conversation longSession(Compactor compactor) {
        Conversation session = Conversation.of(Message.system("You are a careful coding agent."));
        for (int turn = 0; compactor.levelOf(session) != ContextLevel.AUTO_COMPACT; turn++) {
            session = session
                    .append(Message.user("Step " + turn + ": " + "please continue the refactoring. ".repeat(100)))
                    .append(Message.assistant("Done with step " + turn + ". " + "The module compiles again. ".repeat(150)));
        }
        return session;
    }

    private CompletionStage<String> summarize(Conversation older, int maxTokens) {
        return CompletableFuture.completedFuture("The user and the agent refactored the module step by step.");
    }

    private boolean userConfirms(ToolCall call) {
        return userAnswersYes;
    }

    private void show(String reason) {
        shown.add(reason);
    }

    private void send(Conversation conversation) {
        sentOn.add(conversation);
    }

    private void log(CompactionReport report) {
        logged.add(report);
    }

    private void reject(int status, long used, long window) {
        throw new AssertionError("unexpected " + status + ": " + used + " of " + window);
    }
}
