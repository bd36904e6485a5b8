package io.agentfuse.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.agentfuse.agent.budget.ChatBudget;
import io.agentfuse.agent.tokens.TokenCounter;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.Guard;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.FallbackResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A LangChain4j {@link ChatModel} over a primary model and its fallbacks, each behind its own
 * agentfuse {@link Guard} (retry, breaker, bulkhead, timeout): a drop-in for the model an AI
 * service or an agent already calls.
 *
 * <p>A call tries the models in order ({@link FallbackChain}): a model whose breaker is open is
 * skipped without a call; a model that fails after its retries passes to the next. What counts as
 * a failure, and whether it is retried, is {@link LangChain4jOutcomes}'s one decision: a 429, 5xx,
 * timeout or lost connection is retried and falls back; an authentication failure falls back
 * without retry; a bad request ({@code InvalidRequestException}) is thrown at once, as LangChain4j
 * threw it, since every model would refuse it. A server's {@code Retry-After} is honoured when the
 * models use a {@link HeaderKeepingHttpClientBuilder}: a short wait is waited out, a longer one
 * falls over at once and keeps that model's breaker open as long. When every model fails the call throws an
 * {@link AllModelsFailedException} listing each and why. A response's {@code tokenUsage()} feeds
 * each breaker's {@code tokenOveruse} trigger.
 *
 * <p>With a {@link ChatBudget} ({@link Builder#budget}), a call first reserves its estimate — its
 * messages counted, plus {@code maxOutputTokens} — and is refused with a
 * {@link io.agentfuse.agent.budget.BudgetExceededException} before any model is called when the
 * budget's window has nothing left; an answer settles with its {@code tokenUsage()} at the price of
 * the model that answered — the input its provider's prompt cache served or kept at the cache's
 * prices, as the gateway charges it ({@link LangChain4jUsage}) — a call that failed gives its
 * reservation back.
 *
 * <p>Set {@code maxRetries(0)} on the LangChain4j models you wrap: the guards retry, and a model
 * that retries on its own multiplies the attempts and hides them from the breaker.
 *
 * <p>Immutable and thread-safe once built.
 *
 * <pre>{@code
 * ChatModel model = GuardedChatModel.builder()
 *     .model("claude-sonnet-4", anthropicModel, sonnetGuard)
 *     .model("gpt-4o-mini", openAiModel, miniGuard)
 *     .build();
 * String answer = model.chat("Hi");
 * }</pre>
 */
public final class GuardedChatModel implements ChatModel {

    private final FallbackChain<ChatRequest, ChatResponse> chain;
    private final ChatModel primary;
    private final Consumer<FallbackResult<ChatResponse>> onAnswer;
    private final ChatBudget budget;
    private final String primaryName;

    private GuardedChatModel(Builder builder) {
        FallbackChain.Builder<ChatRequest, ChatResponse> steps = FallbackChain.builder();
        for (Step step : builder.steps) {
            steps.step(step.name(), step.guard(), request -> call(step.model(), request));
        }
        this.chain = steps.giveUp().build();
        this.primary = builder.steps.get(0).model();
        this.primaryName = builder.steps.get(0).name();
        this.onAnswer = builder.onAnswer;
        this.budget = builder.budget;
    }

    /** A builder; the first model added is the primary. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        if (budget == null) {
            return execute(request);
        }
        long input = TokenCounter.forModel(primaryName)
                .upperBoundConversation(LangChain4jConversations.toConversation(request.messages()));
        BudgetAmount estimate = budget.estimate(primaryName, input, request.maxOutputTokens());
        return budget.run(estimate, () -> executeWithStep(request), this::used).value();
    }

    /** What an answer used, at the price of the model that answered, its cached input at the cache's prices. */
    private BudgetAmount used(FallbackResult<ChatResponse> result) {
        LangChain4jUsage usage = LangChain4jUsage.of(result.value().tokenUsage());
        return budget.used(result.step(), usage.inputTokens(), usage.cached(), usage.outputTokens());
    }

    private ChatResponse execute(ChatRequest request) {
        return executeWithStep(request).value();
    }

    private FallbackResult<ChatResponse> executeWithStep(ChatRequest request) {
        FallbackResult<ChatResponse> result;
        try {
            result = chain.execute(request);
        } catch (FallbackExhaustedException exhausted) {
            throw new AllModelsFailedException(exhausted);
        } catch (RuntimeException notFallenBack) {
            throw (RuntimeException) RetryHint.original(notFallenBack);
        }
        if (onAnswer != null) {
            onAnswer.accept(result);
        }
        return result;
    }

    /** One attempt: the model's answer, or its failure with the server's wait attached for the guard. */
    private static ChatResponse call(ChatModel model, ChatRequest request) {
        try {
            return model.chat(request);
        } catch (RuntimeException failure) {
            throw (RuntimeException) RetryHint.attach(failure);
        }
    }

    /** The models' names, primary first. */
    public List<String> modelNames() {
        return chain.stepNames();
    }

    @Override
    public Set<Capability> supportedCapabilities() {
        return primary.supportedCapabilities();
    }

    @Override
    public ModelProvider provider() {
        return primary.provider();
    }

    private record Step(String name, ChatModel model, Guard guard) {
    }

    /** Collects the models in order; not thread-safe. */
    public static final class Builder {
        private final List<Step> steps = new ArrayList<>();
        private Consumer<FallbackResult<ChatResponse>> onAnswer;
        private ChatBudget budget;

        private Builder() {
        }

        /** Counts every call against {@code budget}, refusing calls once its window is spent; default none. */
        public Builder budget(ChatBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * Adds {@code model}, called under {@code guard}; {@code name} names it in errors. Build the
         * guard with {@link LangChain4jOutcomes#classifier()} (as {@link AgentfuseLangChain4j} does).
         */
        public Builder model(String name, ChatModel model, Guard guard) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(model, "model");
            steps.add(new Step(name, model, GuardChecks.classifiesLangChain4j(name, guard)));
            return this;
        }

        /** Sees which model answered each call and what was passed over (for logs or metrics). */
        public Builder onAnswer(Consumer<FallbackResult<ChatResponse>> onAnswer) {
            this.onAnswer = onAnswer;
            return this;
        }

        /** The guarded model; throws if no model was added. */
        public GuardedChatModel build() {
            if (steps.isEmpty()) {
                throw new IllegalStateException("a guarded chat model needs at least one model");
            }
            return new GuardedChatModel(this);
        }
    }
}
