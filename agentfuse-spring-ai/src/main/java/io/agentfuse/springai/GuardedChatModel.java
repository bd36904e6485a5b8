package io.agentfuse.springai;

import io.agentfuse.agent.budget.ChatBudget;
import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Guard;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.fallback.FallbackResult;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A Spring AI {@link ChatModel} over a primary model and its fallbacks, each behind its own agentfuse
 * {@link Guard} (retry, circuit breaker, bulkhead, timeout). A call goes to the first model whose
 * breaker lets it through; a model that fails with a failure worth falling back on (5xx, 429,
 * timeouts, refused connections once its retries are spent or the server's wait is too long; a
 * refused API key at once) passes the call to the next.
 * What the model clients throw is classified in one place, {@link ModelFailures}.
 *
 * <ul>
 *   <li>When every model failed or was skipped: a {@link FallbackExhaustedException} that lists each
 *       model and why.</li>
 *   <li>A failure that is not worth falling back on (a 400: the request is wrong for every model) is
 *       thrown at once, as the client threw it.</li>
 *   <li>{@link #stream(Prompt)} falls over only until the first chunk arrives; after it, a break ends
 *       the stream with the client's error and counts against the model that broke.</li>
 * </ul>
 *
 * <p>Made {@link #of from a runtime}, each call takes the runtime's current guard of each model, so
 * a config reload's new breaker and retry settings apply at once; the list of models is fixed when
 * the chat model is made.
 *
 * <p>Put each model's name in its own {@code ChatModel}'s default options, not in the prompt: the
 * same prompt goes to every step. For the breaker's token limit, build the runtime with
 * {@link ChatTokens#used(Object)}.
 *
 * <p>Thread-safe; its only state is a cache of the chains over the guards in force.
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.load(Path.of("agentfuse.yaml")))
 *     .tokens(ChatTokens::used).build();
 * ChatModel chat = GuardedChatModel.of(runtime, "gpt-4o", Map.of("gpt-4o", gpt4o, "gpt-4o-mini", mini));
 * String answer = chat.call("Hello");
 * }</pre>
 */
public final class GuardedChatModel implements ChatModel {

    private final List<Step> steps;
    private final BudgetedChat budget;
    private volatile Chains chains;

    /** One model of the chain, with where its guard comes from (a runtime's guard follows reloads). */
    record Step(String name, Supplier<Guard> guards, ChatModel model) {
    }

    /** One model of the chain with the guard it is called under this time. */
    record GuardedStep(String name, Guard guard, ChatModel model) {
    }

    /** The chains built over one set of guards; rebuilt when a guard changes (after a config reload). */
    private record Chains(List<Guard> guards, FallbackChain<Prompt, ChatResponse> calls, GuardedStream streams) {

        static Chains over(List<Step> steps, List<Guard> guards) {
            FallbackChain.Builder<Prompt, ChatResponse> builder = FallbackChain.builder();
            List<GuardedStep> guarded = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                builder.step(step.name(), guards.get(i), prompt -> callTranslated(step.model(), prompt));
                guarded.add(new GuardedStep(step.name(), guards.get(i), step.model()));
            }
            return new Chains(List.copyOf(guards), builder.giveUp().build(), new GuardedStream(guarded));
        }
    }

    private GuardedChatModel(List<Step> steps, ChatBudget budget) {
        this.steps = List.copyOf(steps);
        this.budget = budget == null ? null : new BudgetedChat(budget, this.steps.get(0).name(), this::modelNamed);
        this.chains = Chains.over(this.steps, currentGuards());
    }

    private ChatModel modelNamed(String name) {
        return steps.stream().filter(step -> step.name().equals(name)).findFirst().map(Step::model).orElse(null);
    }

    private List<Guard> currentGuards() {
        List<Guard> guards = new ArrayList<>(steps.size());
        for (Step step : steps) {
            guards.add(Objects.requireNonNull(step.guards().get(), () -> "no guard for " + step.name()));
        }
        return guards;
    }

    /** The chains over the guards in force; a few map lookups when nothing changed. */
    private Chains chains() {
        Chains current = chains;
        List<Guard> guards = currentGuards();
        for (int i = 0; i < guards.size(); i++) {
            if (guards.get(i) != current.guards().get(i)) {
                current = Chains.over(steps, guards);
                chains = current;
                break;
            }
        }
        return current;
    }

    /** A builder for a chain of models, in the order they are tried. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The chain the configuration gives {@code model}: the model itself, then its {@code fallbacks}
     * (or {@code subagents.fallbacks} when it names none), each behind {@code runtime}'s guard of
     * that model ({@code model:<name>}).
     *
     * @param models a Spring AI chat model for every model of the chain, by configured name
     * @throws IllegalArgumentException if {@code model} or one of its fallbacks is not configured or
     *                                  has no chat model in {@code models}
     */
    public static GuardedChatModel of(AgentfuseRuntime runtime, String model, Map<String, ? extends ChatModel> models) {
        return chainBuilder(runtime, model, models).build();
    }

    /**
     * {@link #of(AgentfuseRuntime, String, Map)} whose calls count against {@code budget} for
     * {@code scopeValue}, at the configured prices ({@code models.<m>.price}, else the built-in
     * table's) and capped by the model's {@code contextWindow}.
     */
    public static GuardedChatModel of(AgentfuseRuntime runtime, String model, Map<String, ? extends ChatModel> models,
                                      TokenBudget budget, String scopeValue) {
        ChatBudget counted = ChatBudget.of(budget, scopeValue)
                .withPrices(name -> runtime.model(name).flatMap(ModelConfig::price))
                .withContextWindow(runtime.model(model).map(ModelConfig::contextWindow).orElse(ChatBudget.DEFAULT_CONTEXT_WINDOW));
        return chainBuilder(runtime, model, models).budget(counted).build();
    }

    private static Builder chainBuilder(AgentfuseRuntime runtime, String model, Map<String, ? extends ChatModel> models) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(models, "models");
        Builder builder = builder();
        for (String name : chainOf(runtime, model)) {
            ChatModel chatModel = models.get(name);
            if (chatModel == null) {
                throw new IllegalArgumentException("no ChatModel for the model " + name + " of the chain of " + model
                        + "; models given: " + models.keySet());
            }
            builder.step(name, () -> runtime.modelGuard(name), chatModel);
        }
        return builder;
    }

    /** The configured model and its fallbacks, in order, without the give-up marker. */
    static List<String> chainOf(AgentfuseRuntime runtime, String model) {
        ModelConfig settings = runtime.config().model(model)
                .orElseThrow(() -> new IllegalArgumentException("model " + model + " is not configured"));
        List<String> fallbacks = settings.fallbacks().isEmpty() ? runtime.config().subagents().fallbacks() : settings.fallbacks();
        List<String> chain = new ArrayList<>();
        chain.add(model);
        for (String fallback : fallbacks) {
            if (fallback == null) {
                break; // the seed's null: give up here
            }
            if (!chain.contains(fallback)) {
                chain.add(fallback);
            }
        }
        return chain;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        return execute(prompt).value();
    }

    /**
     * Like {@link #call(Prompt)}, also telling which model answered and what was passed over. Under a
     * budget, reserved first (or refused with a {@link io.agentfuse.agent.budget.BudgetExceededException}
     * before any model is called) and settled with the answer's usage at the answering model's price.
     */
    public FallbackResult<ChatResponse> execute(Prompt prompt) {
        Objects.requireNonNull(prompt, "prompt");
        return budget == null ? executeUnbudgeted(prompt) : budget.execute(prompt, this::executeUnbudgeted);
    }

    private FallbackResult<ChatResponse> executeUnbudgeted(Prompt prompt) {
        try {
            return chains().calls().execute(prompt);
        } catch (FallbackExhaustedException exhausted) {
            throw exhausted;
        } catch (RuntimeException notFallenBack) {
            throw ModelFailures.original(notFallenBack);
        }
    }

    /**
     * Streams from the first model that starts answering; falls over only before the first chunk.
     * Under a budget, the reservation is made when the stream is subscribed to (a spent budget fails
     * it at once), settled with the last usage the stream reported when it completes (at the first
     * model's price), kept whole when it breaks (the provider bills what it wrote), and given back
     * when it is cancelled before its first chunk.
     */
    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        Objects.requireNonNull(prompt, "prompt");
        return budget == null ? chains().streams().stream(prompt) : budget.stream(prompt, chains().streams()::stream);
    }

    /** The primary model's options. */
    @Override
    public ChatOptions getOptions() {
        return steps.get(0).model().getOptions();
    }

    /** The names of the models, in the order they are tried. */
    public List<String> modelNames() {
        return steps.stream().map(Step::name).toList();
    }

    private static ChatResponse callTranslated(ChatModel model, Prompt prompt) {
        try {
            return model.call(prompt);
        } catch (RuntimeException failure) {
            throw ModelFailures.translate(failure);
        }
    }

    @Override
    public String toString() {
        return "GuardedChatModel" + modelNames();
    }

    /** Collects the models of the chain; not thread-safe. */
    public static final class Builder {
        private final List<Step> steps = new ArrayList<>();
        private ChatBudget budget;

        private Builder() {
        }

        /** Adds {@code model}, called as {@code name} under {@code guard}, after those already added. */
        public Builder model(String name, Guard guard, ChatModel model) {
            Objects.requireNonNull(guard, "guard");
            return step(name, () -> guard, model);
        }

        private Builder step(String name, Supplier<Guard> guards, ChatModel model) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(model, "model");
            if (steps.stream().anyMatch(step -> step.name().equals(name))) {
                throw new IllegalArgumentException("model " + name + " is already in the chain");
            }
            steps.add(new Step(name, guards, model));
            return this;
        }

        /** Counts every call against {@code budget}, refusing calls once its window is spent; default none. */
        public Builder budget(ChatBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /** The guarded model. */
        public GuardedChatModel build() {
            if (steps.isEmpty()) {
                throw new IllegalStateException("a guarded chat model needs at least one model");
            }
            return new GuardedChatModel(steps, budget);
        }
    }
}
