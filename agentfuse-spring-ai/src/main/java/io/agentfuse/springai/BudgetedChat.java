package io.agentfuse.springai;

import io.agentfuse.agent.budget.ChatBudget;
import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.fallback.FallbackResult;
import io.agentfuse.springai.internal.ConversationMapping;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A {@link GuardedChatModel}'s calls under its {@link ChatBudget}: a prompt reserves its messages
 * counted plus its {@code maxTokens} at the first model's price, and settles with the answer's
 * reported usage, the input its provider's prompt cache served or kept at the cache's prices, as the
 * gateway charges it ({@link SpringAiUsage}). Thread-safe.
 */
final class BudgetedChat {

    private final ChatBudget budget;
    private final String firstModel;
    private final Function<String, ChatModel> models;

    /** {@code models} gives the chat model of each name, whose provider tells how its usage counts cached input. */
    BudgetedChat(ChatBudget budget, String firstModel, Function<String, ChatModel> models) {
        this.budget = budget;
        this.firstModel = firstModel;
        this.models = models;
    }

    /** {@code call} of {@code prompt}, reserved first and settled at the price of the model that answered. */
    FallbackResult<ChatResponse> execute(Prompt prompt, Function<Prompt, FallbackResult<ChatResponse>> call) {
        return budget.run(estimate(prompt), () -> call.apply(prompt), result -> used(result.step(), result.value()));
    }

    /**
     * The stream {@code streams} gives for {@code prompt}, reserved when subscribed to (a spent budget
     * fails it at once), settled with the last usage it reported when it completes (at the first
     * model's price; kept whole when it reported none), kept whole when it breaks (the provider bills what it wrote, which is not
     * told), and given back when it is cancelled before its first chunk.
     */
    Flux<ChatResponse> stream(Prompt prompt, Function<Prompt, Flux<ChatResponse>> streams) {
        return Flux.defer(() -> {
            BudgetAmount estimate = estimate(prompt);
            TokenBudget.Reservation reservation = budget.budget().reserve(budget.scopeValue(), estimate);
            AtomicReference<ChatResponse> lastUsage = new AtomicReference<>();
            AtomicBoolean started = new AtomicBoolean();
            return streams.apply(prompt)
                    .doOnNext(chunk -> {
                        started.set(true);
                        if (reported(chunk) != null) {
                            lastUsage.set(chunk);
                        }
                    })
                    .doOnComplete(() -> reservation.settle(budget.charged(estimate, used(firstModel, lastUsage.get()))))
                    .doOnError(broken -> reservation.settle(estimate))
                    .doOnCancel(() -> reservation.settle(started.get() ? estimate : BudgetAmount.ZERO));
        });
    }

    private BudgetAmount estimate(Prompt prompt) {
        long input = TokenCounter.forModel(firstModel)
                .upperBoundConversation(ConversationMapping.toConversation(prompt.getInstructions()));
        Integer maxTokens = prompt.getOptions() == null ? null : prompt.getOptions().getMaxTokens();
        return budget.estimate(firstModel, input, maxTokens);
    }

    private BudgetAmount used(String model, ChatResponse response) {
        SpringAiUsage usage = SpringAiUsage.of(reported(response), models.apply(model));
        return budget.used(model, usage.inputTokens(), usage.cached(), usage.outputTokens());
    }

    /** The usage {@code response} reports, when it reports any tokens. */
    private static Usage reported(ChatResponse response) {
        Usage usage = response == null || response.getMetadata() == null ? null : response.getMetadata().getUsage();
        return usage != null && usage.getTotalTokens() != null && usage.getTotalTokens() > 0 ? usage : null;
    }
}
