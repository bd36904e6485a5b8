package io.agentfuse.agent.budget;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.CachedTokens;
import io.agentfuse.core.budget.ModelPrice;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link TokenBudget} as a chat-model decorator applies it (the LangChain4j and Spring AI guarded
 * chat models): the scope value its calls count for, what each model costs, and the context window
 * that caps an estimate. A call reserves {@link TokenEstimate} of its counted input and its
 * {@code maxOutputTokens} at the first model's price, and settles with the answer's usage at the
 * price of the model that answered.
 *
 * <p>Defaults: no prices (cost is counted as 0: give prices, e.g. the configuration's, for a cost
 * budget), a window of 200 000 tokens. Immutable and thread-safe.
 *
 * <pre>{@code
 * ChatBudget perSession = ChatBudget.of(budget, "session-42").withPrices(ModelFamilies::priceOf);
 * ChatModel model = GuardedChatModel.builder().model("gpt-4o", gpt4o, guard).budget(perSession).build();
 * }</pre>
 *
 * @param budget        the budget the calls count against
 * @param scopeValue    what they count for (a session, a tenant, {@link TokenBudget#GLOBAL})
 * @param prices        each model's price, by the name the decorator gives it
 * @param contextWindow the most tokens a call can use, capping its estimate
 */
public record ChatBudget(TokenBudget budget, String scopeValue, Function<String, Optional<ModelPrice>> prices,
                         int contextWindow) {

    /** The window of a model when nothing says otherwise. */
    public static final int DEFAULT_CONTEXT_WINDOW = 200_000;

    public ChatBudget {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(scopeValue, "scopeValue");
        Objects.requireNonNull(prices, "prices");
        if (contextWindow < 1) {
            throw new IllegalArgumentException("contextWindow must be >= 1, but was " + contextWindow);
        }
    }

    /** {@code budget} counted for {@code scopeValue}, without prices, over a 200 000-token window. */
    public static ChatBudget of(TokenBudget budget, String scopeValue) {
        return new ChatBudget(budget, scopeValue, model -> Optional.empty(), DEFAULT_CONTEXT_WINDOW);
    }

    /** This budget with each model's price from {@code prices}. */
    public ChatBudget withPrices(Function<String, Optional<ModelPrice>> prices) {
        return new ChatBudget(budget, scopeValue, prices, contextWindow);
    }

    /** This budget capping estimates at {@code contextWindow} tokens. */
    public ChatBudget withContextWindow(int contextWindow) {
        return new ChatBudget(budget, scopeValue, prices, contextWindow);
    }

    /** What a call to {@code model} of {@code inputTokens} asking for {@code maxOutputTokens} ({@code null}: not said) reserves. */
    public BudgetAmount estimate(String model, long inputTokens, Integer maxOutputTokens) {
        return TokenEstimate.of(inputTokens, maxOutputTokens, contextWindow, prices.apply(model).orElse(null));
    }

    /** What a call answered by {@code model} that read {@code inputTokens} and wrote {@code outputTokens} used. */
    public BudgetAmount used(String model, long inputTokens, long outputTokens) {
        return used(model, inputTokens, CachedTokens.NONE, outputTokens);
    }

    /**
     * What a call answered by {@code model} that read {@code inputTokens}, of which {@code cached}
     * from or to its provider's prompt cache (within the input, as the gateway counts them), and wrote
     * {@code outputTokens} used: each kind of input at its price ({@link TokenEstimate#used(long,
     * CachedTokens, long, ModelPrice)}), so a library call costs what the gateway charges for the same answer.
     */
    public BudgetAmount used(String model, long inputTokens, CachedTokens cached, long outputTokens) {
        return TokenEstimate.used(inputTokens, cached, outputTokens, prices.apply(model).orElse(null));
    }

    /**
     * {@link TokenBudget#run} for this budget's scope value; an answer whose {@code used} tells no
     * tokens (its provider gave no account) is charged its reservation ({@link TokenEstimate#charged}).
     */
    public <T> T run(BudgetAmount estimate, Supplier<T> call, Function<? super T, BudgetAmount> used) {
        return budget.run(scopeValue, estimate, call, answer -> charged(estimate, used.apply(answer)));
    }

    /** What a call that reserved {@code estimate} and told {@code used} is charged: {@code used}, or the reservation when it tells no tokens. */
    public BudgetAmount charged(BudgetAmount estimate, BudgetAmount used) {
        return TokenEstimate.charged(estimate, used, used.tokens() > 0);
    }
}
