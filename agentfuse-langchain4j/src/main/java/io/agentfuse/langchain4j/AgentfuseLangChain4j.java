package io.agentfuse.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.service.tool.ToolExecutor;
import io.agentfuse.agent.context.Compactor;
import io.agentfuse.agent.context.Summarizer;
import io.agentfuse.agent.budget.ChatBudget;
import io.agentfuse.agent.budget.TokenBudget;
import io.agentfuse.config.AgentfuseRuntime;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builds this module's decorators from an {@code agentfuse.yaml}, through its
 * {@link AgentfuseRuntime}: a model's chain is the model and its {@code fallbacks}, each called
 * under the runtime's guard of that model (its retry and shared retry budget, its breaker
 * {@code model:<name>} in the runtime's registry, its bulkhead and timeout), judged by
 * {@link LangChain4jOutcomes}; a tool runs under the runtime's {@code tool:<name>} breaker.
 *
 * <p>Give it the scheduler and sleeper the runtime was built with (or the same
 * {@link ManualClock} in tests): the runtime does not hand them out, and the guards made here
 * wait and time out with them. The models and tools it makes follow
 * {@link AgentfuseRuntime#reload}: the first call after a reload is made under the new settings
 * (breakers whose settings did not change keep their state, as the runtime keeps them). A chat
 * memory keeps the context budget it was made with. Thread-safe.
 *
 * <pre>{@code
 * AgentfuseRuntime runtime = AgentfuseRuntime.builder(ConfigLoader.load(Path.of("agentfuse.yaml"))).build();
 * AgentfuseLangChain4j fuse = AgentfuseLangChain4j.of(runtime);
 * ChatModel model = fuse.chatModel("claude-sonnet-4", name -> switch (name) {
 *     case "claude-sonnet-4" -> sonnet;
 *     case "gpt-4o-mini" -> mini;
 *     default -> null;
 * });
 * }</pre>
 */
public final class AgentfuseLangChain4j {

    private final AgentfuseRuntime runtime;
    private final Scheduler scheduler;
    private final Sleeper sleeper;

    private AgentfuseLangChain4j(AgentfuseRuntime runtime, Scheduler scheduler, Sleeper sleeper) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** Decorators over {@code runtime}, waiting on the shared scheduler and the system sleeper. */
    public static AgentfuseLangChain4j of(AgentfuseRuntime runtime) {
        return new AgentfuseLangChain4j(runtime, Scheduler.shared(), Sleeper.system());
    }

    /** Decorators over {@code runtime}, waiting with {@code scheduler} and {@code sleeper}. */
    public static AgentfuseLangChain4j of(AgentfuseRuntime runtime, Scheduler scheduler, Sleeper sleeper) {
        return new AgentfuseLangChain4j(runtime, scheduler, sleeper);
    }

    /** Decorators over a runtime built on {@code clock}: how tests drive time. */
    public static AgentfuseLangChain4j of(AgentfuseRuntime runtime, ManualClock clock) {
        return new AgentfuseLangChain4j(runtime, clock, clock::sleep);
    }

    /** The runtime's guard of {@code model}, judging failures with {@link LangChain4jOutcomes}. */
    public Guard modelGuard(String model) {
        return rebind(runtime.modelGuard(model));
    }

    /** The runtime's guard of the tool {@code tool} ({@code tool:<tool>}), judging failures with {@link LangChain4jOutcomes}. */
    public Guard toolGuard(String tool) {
        return rebind(runtime.toolGuard(tool));
    }

    /**
     * A chat model for {@code model} ({@link GuardedChatModel}): it, then its configured
     * {@code fallbacks}, each the LangChain4j model {@code models} returns for its name.
     *
     * @throws IllegalArgumentException if {@code model} is not configured, or {@code models} has
     *                                  no model for a name in the chain
     */
    public ChatModel chatModel(String model, Function<String, ? extends ChatModel> models) {
        return chatModel(model, models, null);
    }

    /**
     * {@link #chatModel(String, Function)} whose calls count against {@code budget} for
     * {@code scopeValue}, at the configured prices ({@code models.<m>.price}, else the built-in
     * table's) and capped by the model's {@code contextWindow}.
     */
    public ChatModel chatModel(String model, Function<String, ? extends ChatModel> models, TokenBudget budget,
                               String scopeValue) {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(scopeValue, "scopeValue");
        return chatModel(model, models, ChatBudget.of(budget, scopeValue)
                .withPrices(name -> runtime.model(name).flatMap(ModelConfig::price))
                .withContextWindow(runtime.model(model).map(ModelConfig::contextWindow).orElse(ChatBudget.DEFAULT_CONTEXT_WINDOW)));
    }

    private ChatModel chatModel(String model, Function<String, ? extends ChatModel> models, ChatBudget budget) {
        return new ConfiguredModels.Chat(new Following<>(runtime, () -> {
            GuardedChatModel.Builder builder = GuardedChatModel.builder();
            for (ModelConfig step : chain(model)) {
                builder.model(step.name(), require(models, step.name(), model), modelGuard(step.name()));
            }
            if (budget != null) {
                builder.budget(budget);
            }
            return builder.build();
        }));
    }

    /**
     * A streaming chat model for {@code model} ({@link GuardedStreamingChatModel}): it, then its
     * configured {@code fallbacks}, each the LangChain4j model {@code models} returns for its
     * name, with its {@code firstTokenTimeout}.
     *
     * @throws IllegalArgumentException if {@code model} is not configured, or {@code models} has
     *                                  no model for a name in the chain
     */
    public StreamingChatModel streamingChatModel(String model, Function<String, ? extends StreamingChatModel> models) {
        return new ConfiguredModels.Streaming(new Following<>(runtime, () -> {
            GuardedStreamingChatModel.Builder builder = GuardedStreamingChatModel.builder().scheduler(scheduler);
            for (ModelConfig step : chain(model)) {
                builder.model(step.name(), require(models, step.name(), model), modelGuard(step.name()),
                        step.firstTokenTimeout());
            }
            return builder.build();
        }));
    }

    /** {@code executor}, the tool {@code tool}, behind the runtime's {@code tool:<tool>} guard ({@link GuardedToolExecutor}). */
    public ToolExecutor toolExecutor(String tool, ToolExecutor executor) {
        return new ConfiguredModels.Tool(new Following<>(runtime, () -> GuardedToolExecutor.of(tool, executor, toolGuard(tool))));
    }

    /**
     * Every executor of {@code tools} behind its tool's guard (by the specification's name): the map
     * an AI service's {@code tools(...)} takes, guarded. Keeps the order.
     */
    public Map<ToolSpecification, ToolExecutor> tools(Map<ToolSpecification, ? extends ToolExecutor> tools) {
        Map<ToolSpecification, ToolExecutor> guarded = new LinkedHashMap<>();
        tools.forEach((specification, executor) -> guarded.put(specification, toolExecutor(specification.name(), executor)));
        return guarded;
    }

    /**
     * {@code memory}, kept within {@code model}'s context window by the {@code context:} ladder,
     * summarising older turns with {@code summarizer} (e.g. a {@link ChatModelSummarizer} over the
     * {@code compactModel}) and snipping when that fails. Counts tokens as {@code model}'s upstream
     * model does ({@link AgentfuseRuntime#tokenCounter}). One compactor per call: give each memory of a model the same one by
     * building it yourself if the summariser's failure cooldown must be shared.
     *
     * @throws IllegalArgumentException if {@code model} is not configured
     */
    public GuardedChatMemory chatMemory(String model, ChatMemory memory, Summarizer summarizer) {
        Compactor compactor = Compactor.builder(runtime.contextBudget(model), runtime.tokenCounter(model))
                .summarizer(summarizer)
                .clock(runtime.modelGuard(model).circuitBreaker().clock())
                .scheduler(scheduler)
                .build();
        return GuardedChatMemory.of(memory, compactor);
    }

    /** The models of {@code model}'s chain, in order: the model and its {@code fallbacks}. */
    public List<ModelConfig> chain(String model) {
        return runtime.config().chainFor(model, false);
    }

    static <M> M require(Function<String, ? extends M> models, String name, String chainOf) {
        M found = models.apply(name);
        if (found == null) {
            throw new IllegalArgumentException("no LangChain4j model for '" + name + "', which the chain of '"
                    + chainOf + "' names");
        }
        return found;
    }

    /**
     * The runtime's guard with the same retry policy (and budget), breaker, bulkhead and timeout,
     * but LangChain4j's classifier and token count: the runtime's guards use the core defaults,
     * which see every LangChain4j exception as a plain ERROR.
     */
    private Guard rebind(Guard guard) {
        return Guard.builder(guard.name())
                .retry(guard.retryPolicy())
                .circuitBreaker(guard.circuitBreaker())
                .bulkhead(guard.bulkhead())
                .timeout(guard.timeout() == null ? null : guard.timeout().duration())
                .scheduler(scheduler)
                .sleeper(sleeper)
                .classifier(LangChain4jOutcomes.classifier())
                .tokens(LangChain4jOutcomes::tokens)
                .build();
    }
}
