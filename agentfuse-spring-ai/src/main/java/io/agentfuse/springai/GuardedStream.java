package io.agentfuse.springai;

import io.agentfuse.core.HeldPermit;
import io.agentfuse.core.LongCall;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import org.reactivestreams.Subscription;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The streaming side of {@link GuardedChatModel}: a stream is retried and falls over to the next
 * model only until its first chunk arrives; after that the chunks are relayed as they come and a
 * failure ends the stream with the error the client threw. Until the first chunk, the guard's
 * timeout bounds the wait. The breaker's permit of the attempt that started the stream records
 * the stream's end, through core's {@link HeldPermit}, with the stream's whole duration: a clean end
 * is a success with the usage its chunks reported (over the token limit, {@code TOKEN_OVERUSE}), a
 * break its failure (so a model whose streams always break trips its breaker), a cancellation by the
 * subscriber nothing.
 *
 * <p>Thread-safe; one instance serves every stream of its chat model.
 */
final class GuardedStream {

    private final FallbackChain<Prompt, ChunkRelay> chain;

    GuardedStream(List<GuardedChatModel.GuardedStep> steps) {
        FallbackChain.Builder<Prompt, ChunkRelay> builder = FallbackChain.builder();
        for (GuardedChatModel.GuardedStep step : steps) {
            builder.asyncStep(step.name(), step.guard(), prompt -> start(step, prompt));
        }
        this.chain = builder.giveUp().build();
    }

    Flux<ChatResponse> stream(Prompt prompt) {
        return Flux.defer(() -> Mono.fromFuture(chain.executeAsync(prompt))
                .onErrorMap(error -> {
                    Throwable cause = OutcomeClassifier.unwrap(error);
                    return cause instanceof RuntimeException runtime && !(cause instanceof FallbackExhaustedException)
                            ? ModelFailures.original(runtime) : cause;
                })
                .flatMapMany(result -> result.value().chunks()));
    }

    /** One attempt: subscribes to the model's stream; the future completes at the first chunk. */
    private static CompletableFuture<ChunkRelay> start(GuardedChatModel.GuardedStep step, Prompt prompt) {
        ChunkRelay relay = new ChunkRelay(new HeldPermit(step.guard()));
        try {
            step.model().stream(prompt).subscribe(relay);
        } catch (RuntimeException failure) {
            relay.first.completeExceptionally(ModelFailures.translate(failure));
        }
        relay.first.whenComplete((ignored, error) -> {
            if (relay.first.isCancelled()) {
                relay.cancel(); // timed out or cancelled before the first chunk
            }
        });
        return relay.first;
    }

    /** Relays one model stream and records its end against the permit the guard hands it. */
    static final class ChunkRelay extends BaseSubscriber<ChatResponse> implements LongCall {
        final CompletableFuture<ChunkRelay> first = new CompletableFuture<>();
        private final Sinks.Many<ChatResponse> sink = Sinks.many().unicast().onBackpressureBuffer();
        private final HeldPermit permit;
        private boolean started;
        /** The most tokens a chunk reported: the providers report a stream's usage, summed so far, in its last chunks. */
        private long tokens;

        ChunkRelay(HeldPermit permit) {
            this.permit = permit;
        }

        Flux<ChatResponse> chunks() {
            return sink.asFlux().doOnCancel(() -> {
                cancel();
                permit.released(); // the subscriber left: not the model's fault, nothing to hold against it
            });
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        protected void hookOnNext(ChatResponse chunk) {
            tokens = Math.max(tokens, ChatTokens.used(chunk));
            if (!started) {
                started = true;
                sink.tryEmitNext(chunk);
                if (!first.complete(this)) {
                    cancel(); // nobody waits any more: the attempt timed out or was cancelled
                }
                return;
            }
            sink.tryEmitNext(chunk);
        }

        @Override
        protected void hookOnError(Throwable error) {
            RuntimeException failure = error instanceof RuntimeException runtime ? runtime : new IllegalStateException(error);
            if (!started) {
                first.completeExceptionally(ModelFailures.translate(failure));
                return;
            }
            permit.broke(ModelFailures.translate(failure));
            sink.tryEmitError(ModelFailures.original(failure));
        }

        @Override
        protected void hookOnComplete() {
            if (!started) {
                first.completeExceptionally(new IllegalStateException("the model's stream ended before its first chunk"));
                return;
            }
            permit.finished(tokens); // over the token limit: TOKEN_OVERUSE
            sink.tryEmitComplete();
        }

        @Override
        public HeldPermit heldPermit() {
            return permit;
        }
    }
}
