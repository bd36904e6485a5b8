package io.agentfuse.core.fallback;

import io.agentfuse.core.OutcomeClassifier;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One asynchronous execution of a {@link FallbackChain} and the future of its result: each step
 * starts when the one before has failed in a way worth passing over. Cancelling it cancels the
 * step in flight directly, rather than through a completion stage registered on every step for
 * that, and no further step is tried.
 */
final class AsyncChainRun<I, T> extends CompletableFuture<FallbackResult<T>> {

    private final List<ChainStep<I, T>> steps;
    private final I input;
    /** Written by each step before the next starts; the attempt's completion orders the writes. */
    private List<StepFailure> passed = List.of();
    private volatile CompletableFuture<T> inFlight;

    AsyncChainRun(List<ChainStep<I, T>> steps, I input) {
        this.steps = steps;
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
        ChainStep<I, T> step = steps.get(index);
        String skipReason;
        try {
            skipReason = step.skipWhen().apply(input);
        } catch (RuntimeException e) {
            completeExceptionally(e);
            return;
        }
        if (skipReason != null) {
            passed = with(passed, StepFailure.unservable(step.name(), skipReason));
            tryStep(index + 1);
            return;
        }
        ChainStep<I, T>.LastAttempt last = step.observe(input);
        CompletableFuture<T> attempt = step.guard().executeAsync(last, () -> step.asyncCall().apply(input));
        inFlight = attempt;
        if (isCancelled()) {
            attempt.cancel(true); // cancelled before the attempt was known to cancel()
        }
        attempt.whenComplete((value, error) -> {
            try {
                StepFailure failure = error != null ? step.passOrThrow(OutcomeClassifier.unwrap(error), last)
                        : step.failedResult(value, last);
                if (failure == null) {
                    complete(new FallbackResult<>(value, step.name(), index, passed));
                } else {
                    passed = with(passed, failure);
                    tryStep(index + 1);
                }
            } catch (RuntimeException notPassed) {
                completeExceptionally(notPassed);
            }
        });
    }

    /** {@code passed} and {@code failure}: most requests pass over no step, so the list is made with the first. */
    private static List<StepFailure> with(List<StepFailure> passed, StepFailure failure) {
        List<StepFailure> more = passed.isEmpty() ? new ArrayList<>(2) : passed;
        more.add(failure);
        return more;
    }
}
