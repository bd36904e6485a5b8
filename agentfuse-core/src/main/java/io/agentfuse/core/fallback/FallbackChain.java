package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptObserver;
import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Guard;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.BulkheadFullException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
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
 * <p>Immutable and thread-safe once built.
 *
 * <pre>{@code
 * FallbackChain<Prompt, String> chain = FallbackChain.<Prompt, String>builder()
 *     .step("claude-sonnet-4", sonnetGuard, prompt -> anthropic.complete("claude-sonnet-4", prompt))
 *     .step("claude-haiku-4", haikuGuard, prompt -> anthropic.complete("claude-haiku-4", prompt))
 *     .step("gpt-4o-mini", miniGuard, prompt -> openai.complete("gpt-4o-mini", prompt))
 *     .giveUp()
 *     .build();
 * FallbackResult<String> answer = chain.execute(prompt);
 * }</pre>
 *
 * @param <I> the input every step receives
 * @param <T> the answer
 */
public final class FallbackChain<I, T> {

    private final List<Step<I, T>> steps;
    private final Predicate<Outcome> fallbackOn;
    private final AttemptListener<? super I> onAttempt;

    private FallbackChain(List<Step<I, T>> steps, Predicate<Outcome> fallbackOn, AttemptListener<? super I> onAttempt) {
        this.steps = List.copyOf(steps);
        this.fallbackOn = fallbackOn;
        this.onAttempt = onAttempt;
    }

    /** A builder for an empty chain. */
    public static <I, T> Builder<I, T> builder() {
        return new Builder<>();
    }

    /** Tries the steps in order on this thread; every step must be synchronous. */
    public FallbackResult<T> execute(I input) {
        List<StepFailure> passed = new ArrayList<>();
        for (int index = 0; index < steps.size(); index++) {
            Step<I, T> step = steps.get(index);
            if (step.syncCall == null) {
                throw new IllegalStateException("step '" + step.name + "' is asynchronous: use executeAsync");
            }
            String skipReason = step.skipWhen.apply(input);
            if (skipReason != null) {
                passed.add(StepFailure.unservable(step.name, skipReason));
                continue;
            }
            T value;
            LastAttempt last = new LastAttempt(step.name, input);
            try {
                value = step.guard.execute(last, () -> step.syncCall.apply(input));
            } catch (RuntimeException failure) {
                passed.add(passOrThrow(step, failure, last.result));
                continue;
            }
            StepFailure badResult = failedResult(step, value, last.result);
            if (badResult == null) {
                return new FallbackResult<>(value, step.name, index, passed);
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
        AsyncRun run = new AsyncRun(input);
        run.tryStep(0);
        return run;
    }

    /**
     * One asynchronous execution and the future of its result. Cancelling it cancels the step in
     * flight directly, rather than through a completion stage registered on every step for that.
     */
    private final class AsyncRun extends CompletableFuture<FallbackResult<T>> {
        private final I input;
        /** Written by each step before the next starts; the attempt's completion orders the writes. */
        private List<StepFailure> passed = List.of();
        private volatile CompletableFuture<T> inFlight;

        AsyncRun(I input) {
            this.input = input;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            CompletableFuture<T> attempt = inFlight;
            if (cancelled && attempt != null) {
                attempt.cancel(mayInterruptIfRunning);
            }
            return cancelled;
        }

        void tryStep(int index) {
            if (isDone()) {
                return; // cancelled by the caller: nobody waits for another step
            }
            if (index == steps.size()) {
                completeExceptionally(new FallbackExhaustedException(passed));
                return;
            }
            Step<I, T> step = steps.get(index);
            String skipReason;
            try {
                skipReason = step.skipWhen.apply(input);
            } catch (RuntimeException e) {
                completeExceptionally(e);
                return;
            }
            if (skipReason != null) {
                passed = with(passed, StepFailure.unservable(step.name, skipReason));
                tryStep(index + 1);
                return;
            }
            LastAttempt last = new LastAttempt(step.name, input);
            CompletableFuture<T> attempt = step.guard.executeAsync(last, () -> step.asyncCall.apply(input));
            inFlight = attempt;
            if (isCancelled()) {
                attempt.cancel(true); // cancelled before the attempt was known to cancel()
            }
            attempt.whenComplete((value, error) -> {
                try {
                    StepFailure failure = error != null ? passOrThrow(step, OutcomeClassifier.unwrap(error), last.result)
                            : failedResult(step, value, last.result);
                    if (failure == null) {
                        complete(new FallbackResult<>(value, step.name, index, passed));
                    } else {
                        passed = with(passed, failure);
                        tryStep(index + 1);
                    }
                } catch (RuntimeException notPassed) {
                    completeExceptionally(notPassed);
                }
            });
        }
    }

    /** {@code passed} and {@code failure}: most requests pass over no step, so the list is made with the first. */
    private static List<StepFailure> with(List<StepFailure> passed, StepFailure failure) {
        List<StepFailure> more = passed.isEmpty() ? new ArrayList<>(2) : passed;
        more.add(failure);
        return more;
    }

    private StepFailure passOrThrow(Step<I, T> step, Throwable failure, AttemptResult last) {
        CircuitBreaker breaker = step.guard.circuitBreaker();
        if (failure instanceof CircuitOpenException open && breaker != null && !breaker.isInnerRejection(open)) {
            // The guard throws its own breaker's rejection only when no attempt was made.
            return StepFailure.circuitOpen(step.name, open);
        }
        if (failure instanceof BulkheadFullException full) {
            return StepFailure.bulkheadFull(step.name, full);
        }
        // The guard classified the attempt that failed; only a failure outside any attempt (a
        // throwing result rule or token counter) has not been classified yet.
        Outcome outcome = last != null && last.cause() == OutcomeClassifier.unwrap(failure) ? last.outcome()
                : step.guard.classifier().classify(failure);
        if (fallbackOn.test(outcome)) {
            return StepFailure.failed(step.name, outcome, failure);
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        throw new IllegalStateException(failure);
    }

    private StepFailure failedResult(Step<I, T> step, T value, AttemptResult last) {
        OutcomeClassifier classifier = step.guard.classifier();
        if (!classifier.hasResultRules()) {
            return null;
        }
        Outcome outcome = last != null && last.cause() == null ? last.outcome() : classifier.classifyResult(value);
        return outcome.isFailure() && fallbackOn.test(outcome) ? StepFailure.failed(step.name, outcome, null) : null;
    }

    /** The steps' names, in order. */
    public List<String> stepNames() {
        return steps.stream().map(step -> step.name).toList();
    }

    /** Keeps a step's last classified attempt and hands every attempt to the chain's observer. */
    private final class LastAttempt implements AttemptObserver {
        private final String step;
        private final I input;
        private volatile AttemptResult result;

        LastAttempt(String step, I input) {
            this.step = step;
            this.input = input;
        }

        @Override
        public void onAttempt(AttemptResult attempt) {
            result = attempt;
            if (onAttempt != null) {
                onAttempt.onAttempt(input, step, attempt);
            }
        }
    }

    private record Step<I, T>(String name, Guard guard, Function<? super I, String> skipWhen,
                              Function<? super I, ? extends T> syncCall,
                              Function<? super I, ? extends CompletionStage<T>> asyncCall) {
    }

    /** Collects the steps; not thread-safe. */
    public static final class Builder<I, T> {
        private final List<Step<I, T>> steps = new ArrayList<>();
        private Predicate<Outcome> fallbackOn = Outcome::isFallbackByDefault;
        private AttemptListener<? super I> onAttempt;
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
            return add(new Step<>(name, guard, skipWhen, call, input -> CompletableFuture.completedFuture(call.apply(input))));
        }

        /** An asynchronous step. */
        public Builder<I, T> asyncStep(String name, Guard guard, Function<? super I, ? extends CompletionStage<T>> call) {
            return asyncStep(name, guard, input -> null, call);
        }

        /** An asynchronous step that is skipped whenever {@code skipWhen} returns a reason. */
        public Builder<I, T> asyncStep(String name, Guard guard, Function<? super I, String> skipWhen,
                                       Function<? super I, ? extends CompletionStage<T>> call) {
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

        /** The immutable chain. */
        public FallbackChain<I, T> build() {
            if (steps.isEmpty()) {
                throw new IllegalStateException("a fallback chain needs at least one step");
            }
            return new FallbackChain<>(steps, fallbackOn, onAttempt);
        }
    }
}
