package io.agentfuse.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import io.agentfuse.core.Guard;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A LangChain4j {@link StreamingChatModel} over a primary model and its fallbacks, each behind
 * its own {@link Guard}, with a first-token timeout.
 *
 * <p>Until the first token (text, thinking or a tool call) reaches the caller, a failure is
 * retried and falls back exactly as in {@link GuardedChatModel}, and a model that sends nothing
 * within its first-token timeout ({@link FirstTokenTimeoutException}, a TIMEOUT) is given up on
 * and its stream cancelled. The caller's handler sees the events of one model only: the one that
 * answered. After the first token a failure is not retried (the caller has already shown text):
 * it goes to the handler's {@code onError}, and it is recorded by that model's breaker against
 * the permit the stream started with, so a model whose streams keep breaking trips its breaker;
 * a stream that finishes is recorded as a success, or as TOKEN_OVERUSE past the breaker's token
 * limit. When every model fails before its first token, {@code onError} gets an
 * {@link AllModelsFailedException}; a bad request gets LangChain4j's own exception.
 *
 * <p>{@code chat} returns at once; events come on LangChain4j's threads. The guards' timeouts
 * limit the wait for the first token too. Immutable and thread-safe once built.
 *
 * <pre>{@code
 * StreamingChatModel model = GuardedStreamingChatModel.builder()
 *     .model("claude-sonnet-4", anthropicStreaming, sonnetGuard, Duration.ofSeconds(20))
 *     .model("gpt-4o-mini", openAiStreaming, miniGuard, Duration.ofSeconds(20))
 *     .build();
 * model.chat("Hi", handler);
 * }</pre>
 */
public final class GuardedStreamingChatModel implements StreamingChatModel {

    /** The first-token timeout of a model added without one (the config's {@code firstTokenTimeout} default). */
    public static final Duration DEFAULT_FIRST_TOKEN_TIMEOUT = Duration.ofSeconds(20);

    private final FallbackChain<ChatRequest, StreamAttempt> chain;
    private final StreamingChatModel primary;

    private GuardedStreamingChatModel(Builder builder) {
        FallbackChain.Builder<ChatRequest, StreamAttempt> steps = FallbackChain.builder();
        for (Step step : builder.steps) {
            steps.asyncStep(step.name(), step.guard(),
                    request -> StreamAttempt.start(step.model(), request, step.firstTokenTimeout(), builder.scheduler, step.guard()));
        }
        this.chain = steps.giveUp().build();
        this.primary = builder.steps.get(0).model();
    }

    /** A builder; the first model added is the primary. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        Objects.requireNonNull(handler, "handler");
        chain.executeAsync(request).whenComplete((answered, error) -> {
            if (error == null) {
                answered.value().commit(handler);
                return;
            }
            Throwable failure = RetryHint.original(OutcomeClassifier.unwrap(error));
            handler.onError(failure instanceof FallbackExhaustedException exhausted
                    ? new AllModelsFailedException(exhausted) : failure);
        });
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

    private record Step(String name, StreamingChatModel model, Guard guard, Duration firstTokenTimeout) {
    }

    /** Collects the models in order; not thread-safe. */
    public static final class Builder {
        private final List<Step> steps = new ArrayList<>();
        private Scheduler scheduler = Scheduler.shared();

        private Builder() {
        }

        /** Adds {@code model} under {@code guard}, with the default first-token timeout. */
        public Builder model(String name, StreamingChatModel model, Guard guard) {
            return model(name, model, guard, DEFAULT_FIRST_TOKEN_TIMEOUT);
        }

        /** Adds {@code model} under {@code guard}; it must send its first token within {@code firstTokenTimeout}. */
        public Builder model(String name, StreamingChatModel model, Guard guard, Duration firstTokenTimeout) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
            if (firstTokenTimeout.isNegative() || firstTokenTimeout.isZero()) {
                throw new IllegalArgumentException("firstTokenTimeout must be > 0, but was " + firstTokenTimeout);
            }
            steps.add(new Step(name, model, GuardChecks.classifiesLangChain4j(name, guard), firstTokenTimeout));
            return this;
        }

        /** Where first-token timeouts are timed; default {@link Scheduler#shared()} (a {@code ManualClock} in tests). */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** The guarded model; throws if no model was added. */
        public GuardedStreamingChatModel build() {
            if (steps.isEmpty()) {
                throw new IllegalStateException("a guarded streaming chat model needs at least one model");
            }
            return new GuardedStreamingChatModel(this);
        }
    }
}
