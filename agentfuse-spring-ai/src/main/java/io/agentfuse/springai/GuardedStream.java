package io.agentfuse.springai;

import io.agentfuse.core.LongCall;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
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
 * the stream's end: a clean end is a success, a break its failure (so a model whose streams always
 * break trips its breaker), a cancellation by the subscriber nothing.
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
        ChunkRelay relay = new ChunkRelay(step.guard().classifier());
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
        private final OutcomeClassifier classifier;
        private boolean started;
        private CircuitBreaker breaker;
        private long permit;
        private boolean endSeen;
        private Outcome endOutcome;
        private boolean recorded;

        ChunkRelay(OutcomeClassifier classifier) {
            this.classifier = classifier;
        }

        Flux<ChatResponse> chunks() {
            return sink.asFlux().doOnCancel(() -> {
                cancel();
                end(null); // the subscriber left: not the model's fault, nothing to hold against it
            });
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        protected void hookOnNext(ChatResponse chunk) {
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
            end(classifier.classify(ModelFailures.translate(failure)));
            sink.tryEmitError(ModelFailures.original(failure));
        }

        @Override
        protected void hookOnComplete() {
            if (!started) {
                first.completeExceptionally(new IllegalStateException("the model's stream ended before its first chunk"));
                return;
            }
            end(Outcome.SUCCESS);
            sink.tryEmitComplete();
        }

        @Override
        public synchronized boolean holdPermit(CircuitBreaker breaker, long permit) {
            this.breaker = breaker;
            this.permit = permit;
            if (endSeen) {
                record();
            }
            return true;
        }

        /** Notes the stream's end ({@code null}: released unjudged) and records it once the permit is here. */
        private synchronized void end(Outcome outcome) {
            if (endSeen) {
                return;
            }
            endSeen = true;
            endOutcome = outcome;
            if (breaker != null) {
                record();
            }
        }

        private void record() {
            if (recorded) {
                return;
            }
            recorded = true;
            if (endOutcome == null) {
                breaker.release(permit);
            } else {
                breaker.onOutcome(permit, endOutcome, 0L, RetryAfter.NONE);
            }
        }
    }
}
