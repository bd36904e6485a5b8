package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptContext;
import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.event.HedgeListener;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.internal.BlockingCall;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Ordered alternatives, each behind its own {@link Guard}: the seed's
 * {@code fallbacks: [claude-haiku-4, gpt-4o-mini, null]}.
 *
 * <p>Steps are tried in order. A step whose breaker is open before its first attempt is skipped
 * without a call; so is a step whose {@code skipWhen} names a reason (e.g. a request it cannot
 * translate), or whose bulkhead is full. A step that was called is never reported as skipped:
 * if its breaker opens during its retries (another caller tripped it), the step failed with the
 * failure that led to the retry; another breaker's rejection from inside its call is its failure too. A step that
 * fails with an outcome in {@code fallbackOn} (default: every failure but
 * {@link Outcome#CLIENT_ERROR} and {@link Outcome#TOKEN_OVERUSE}, see
 * {@link Outcome#isFallbackByDefault()}) passes to the next; any other error is thrown as it is,
 * at once. The end of the list, or a {@link Builder#giveUp()} step, gives up with a
 * {@link FallbackExhaustedException} that lists every step and why. The result names the step
 * that answered and what was passed over. Why a step failed is read from its guard's classification
 * of the last attempt ({@link AttemptResult}), never classified again; {@link Builder#onAttempt}
 * sees every attempt of every step the same way (for metrics), {@link Builder#observeAttempts} with
 * the execution's input (for a per-request trace).
 *
 * <p><b>Deadline.</b> Run with a {@link Deadline} ({@link #execute(Object, Deadline)}), a step that
 * cannot fit the time left by its guard's recent median latency is not started: it is passed over
 * as {@link StepFailure.Kind#DEADLINE} (a faster step after it may still fit), and the chain ends at
 * once when no step is left. Every step's guard keeps the same deadline for its retries and cuts
 * its attempts to the time left (docs/design.md §13).
 *
 * <p><b>Hedging.</b> With a {@link HedgePolicy} ({@link Builder#hedge}), a step that has produced no
 * result after the policy's delay (fixed, or its guard's recent p95) gets the next step started
 * beside it, once per run and within the policy's budget; the first to produce a result (an answer,
 * or its first content: {@link AttemptContext#firstContent()}) wins, the other is cancelled and
 * given back to its breaker unjudged, and {@link FallbackResult#hedged()} says whether the hedge
 * answered. An answer that loses the race and holds a resource ({@link AutoCloseable}) is closed.
 * Synchronous steps of a hedged chain run on the policy's executor, and {@link #execute} waits.
 *
 * <p>Immutable and thread-safe once built.
 *
 * <pre>{@code
 * FallbackChain<Prompt, String> chain = FallbackChain.<Prompt, String>builder()
 *     .step("claude-sonnet-4", sonnetGuard, prompt -> anthropic.complete("claude-sonnet-4", prompt))
 *     .step("claude-haiku-4", haikuGuard, prompt -> anthropic.complete("claude-haiku-4-5", prompt))
 *     .step("gpt-4o-mini", miniGuard, prompt -> openai.complete("gpt-4o-mini", prompt))
 *     .giveUp()
 *     .build();
 * FallbackResult<String> answer = chain.execute(prompt);
 * FallbackResult<String> inTime = chain.execute(prompt, Deadline.after(Duration.ofSeconds(30), clock));
 * }</pre>
 *
 * @param <I> the input every step receives
 * @param <T> the answer
 */
public final class FallbackChain<I, T> {

    private final List<ChainStep<I, T>> steps;
    private final HedgePolicy hedge;
    private final HedgeListener hedgeListener;

    private FallbackChain(List<ChainStep<I, T>> steps, HedgePolicy hedge, HedgeListener hedgeListener) {
        this.steps = List.copyOf(steps);
        this.hedge = hedge;
        this.hedgeListener = hedgeListener;
    }

    /** A builder for an empty chain. */
    public static <I, T> Builder<I, T> builder() {
        return new Builder<>();
    }

    /** Tries the steps in order on this thread; every step must be synchronous. */
    public FallbackResult<T> execute(I input) {
        return execute(input, Deadline.none());
    }

    /**
     * Tries the steps in order within {@code deadline}; every step must be synchronous. Without a
     * hedge policy they run on this thread; with one, on the policy's executor while this thread waits.
     */
    public FallbackResult<T> execute(I input, Deadline deadline) {
        Objects.requireNonNull(deadline, "deadline");
        for (ChainStep<I, T> step : steps) {
            if (step.syncCall() == null) {
                throw new IllegalStateException("step '" + step.name() + "' is asynchronous: use executeAsync");
            }
        }
        if (hedge != null) {
            return BlockingCall.await(run(input, deadline));
        }
        List<StepFailure> passed = new ArrayList<>();
        for (int index = 0; index < steps.size(); index++) {
            ChainStep<I, T> step = steps.get(index);
            StepFailure notStarted = step.notStarted(input, deadline);
            if (notStarted != null) {
                passed.add(notStarted);
                continue;
            }
            T value;
            ChainStep<I, T>.LastAttempt last = step.observe(input);
            try {
                value = step.execute(input, deadline, last);
            } catch (RuntimeException failure) {
                passed.add(step.passOrThrow(failure, last));
                continue;
            }
            StepFailure badResult = step.failedResult(value, last);
            if (badResult == null) {
                return new FallbackResult<>(value, step.name(), index, passed);
            }
            passed.add(badResult);
        }
        throw new FallbackExhaustedException(passed);
    }

    /**
     * Tries the steps in order without blocking; the future fails as {@link #execute} would throw.
     * Cancelling it cancels the step in flight, and no further step is tried.
     */
    public CompletableFuture<FallbackResult<T>> executeAsync(I input) {
        return run(input, Deadline.none());
    }

    /** Like {@link #executeAsync(Object)} within {@code deadline}, deciding as {@link #execute(Object, Deadline)} does. */
    public CompletableFuture<FallbackResult<T>> executeAsync(I input, Deadline deadline) {
        return run(input, Objects.requireNonNull(deadline, "deadline"));
    }

    private CompletableFuture<FallbackResult<T>> run(I input, Deadline deadline) {
        // Hedging needs a second thread for a synchronous step; without a hedge it runs on this one.
        return new AsyncChainRun<>(steps, input, deadline, hedge, hedgeListener,
                hedge == null ? null : hedge.executor()).start();
    }

    /** The hedge policy, or {@code null}. */
    public HedgePolicy hedgePolicy() {
        return hedge;
    }

    /** The steps' names, in order. */
    public List<String> stepNames() {
        return steps.stream().map(ChainStep::name).toList();
    }

    /** A step as the builder collects it, before the chain's settings are known. */
    private record Step<I, T>(String name, Guard guard, Function<? super I, String> skipWhen,
                              BiFunction<? super I, AttemptContext, ? extends T> syncCall,
                              BiFunction<? super I, AttemptContext, ? extends CompletionStage<T>> asyncCall) {
    }

    /** Collects the steps; not thread-safe. */
    public static final class Builder<I, T> {
        private final List<Step<I, T>> steps = new ArrayList<>();
        private Predicate<Outcome> fallbackOn = Outcome::isFallbackByDefault;
        private AttemptListener<? super I> onAttempt;
        private HedgePolicy hedge;
        private HedgeListener hedgeListener;
        private boolean gaveUp;

        private Builder() {
        }

        /** A synchronous step. */
        public Builder<I, T> step(String name, Guard guard, Function<? super I, ? extends T> call) {
            return step(name, guard, input -> null, call);
        }

        /** A synchronous step that is skipped whenever {@code skipWhen} returns a reason. */
        public Builder<I, T> step(String name, Guard guard, Function<? super I, String> skipWhen,
                                  Function<? super I, ? extends T> call) {
            Objects.requireNonNull(call, "call");
            return step(name, guard, skipWhen, (input, attempt) -> call.apply(input));
        }

        /** A synchronous step whose call also gets each attempt's {@link AttemptContext} (its time left). */
        public Builder<I, T> step(String name, Guard guard, Function<? super I, String> skipWhen,
                                  BiFunction<? super I, AttemptContext, ? extends T> call) {
            Objects.requireNonNull(call, "call");
            return add(new Step<>(name, guard, skipWhen, call,
                    (input, attempt) -> CompletableFuture.completedFuture(call.apply(input, attempt))));
        }

        /** An asynchronous step. */
        public Builder<I, T> asyncStep(String name, Guard guard, Function<? super I, ? extends CompletionStage<T>> call) {
            return asyncStep(name, guard, input -> null, call);
        }

        /** An asynchronous step that is skipped whenever {@code skipWhen} returns a reason. */
        public Builder<I, T> asyncStep(String name, Guard guard, Function<? super I, String> skipWhen,
                                       Function<? super I, ? extends CompletionStage<T>> call) {
            Objects.requireNonNull(call, "call");
            return asyncStep(name, guard, skipWhen, (input, attempt) -> call.apply(input));
        }

        /**
         * An asynchronous step whose call also gets each attempt's {@link AttemptContext}: a step that
         * streams signals its first content there, which is what a hedge races for.
         */
        public Builder<I, T> asyncStep(String name, Guard guard, Function<? super I, String> skipWhen,
                                       BiFunction<? super I, AttemptContext, ? extends CompletionStage<T>> call) {
            Objects.requireNonNull(call, "call");
            return add(new Step<>(name, guard, skipWhen, null, call));
        }

        private Builder<I, T> add(Step<I, T> step) {
            if (gaveUp) {
                throw new IllegalStateException("step '" + step.name() + "' comes after giveUp(): it could never run");
            }
            Objects.requireNonNull(step.name(), "name");
            Objects.requireNonNull(step.guard(), "guard");
            Objects.requireNonNull(step.skipWhen(), "skipWhen");
            steps.add(step);
            return this;
        }

        /** The seed's {@code null}: the chain ends here and gives up. */
        public Builder<I, T> giveUp() {
            gaveUp = true;
            return this;
        }

        /** Which outcomes move on to the next step; default {@link Outcome#isFallbackByDefault()}. */
        public Builder<I, T> fallbackOn(Predicate<Outcome> fallbackOn) {
            this.fallbackOn = Objects.requireNonNull(fallbackOn, "fallbackOn");
            return this;
        }

        /**
         * Sees every attempt of every step, with the step's name, as its guard classified it (for
         * metrics); called on the thread that finished the attempt, so it must be quick.
         */
        public Builder<I, T> onAttempt(BiConsumer<String, AttemptResult> onAttempt) {
            Objects.requireNonNull(onAttempt, "onAttempt");
            this.onAttempt = (input, step, attempt) -> onAttempt.accept(step, attempt);
            return this;
        }

        /**
         * Like {@link #onAttempt(BiConsumer)}, with the input of the execution each attempt belongs
         * to (a request's trace, for one); replaces an observer set before.
         */
        public Builder<I, T> observeAttempts(AttemptListener<? super I> listener) {
            this.onAttempt = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Starts the next step beside a slow one ({@link HedgePolicy}); default none. */
        public Builder<I, T> hedge(HedgePolicy hedge) {
            this.hedge = hedge;
            return this;
        }

        /** Receives the chain's hedge events (for metrics); default none. */
        public Builder<I, T> hedgeListener(HedgeListener listener) {
            this.hedgeListener = listener;
            return this;
        }

        /** The immutable chain. */
        public FallbackChain<I, T> build() {
            if (steps.isEmpty()) {
                throw new IllegalStateException("a fallback chain needs at least one step");
            }
            List<ChainStep<I, T>> built = new ArrayList<>(steps.size());
            for (Step<I, T> step : steps) {
                built.add(new ChainStep<>(step.name(), step.guard(), step.skipWhen(), step.syncCall(), step.asyncCall(),
                        fallbackOn, onAttempt));
            }
            return new FallbackChain<>(built, hedge, hedgeListener);
        }
    }
}
