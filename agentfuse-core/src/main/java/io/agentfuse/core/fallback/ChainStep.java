package io.agentfuse.core.fallback;

import io.agentfuse.core.AttemptContext;
import io.agentfuse.core.AttemptObserver;
import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.Deadline;
import io.agentfuse.core.Guard;
import io.agentfuse.core.LatencyEstimate;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.internal.BlockingCall;
import io.agentfuse.core.internal.TimeLeft;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One step of a {@link FallbackChain}: its guard and call, and the one place that decides what the
 * step's start and end mean for the chain, for the synchronous and the asynchronous run alike —
 * whether it may start at all (its input, the time left), an answer, a {@link StepFailure} to pass
 * over, or an error to throw as it is. Why a step failed is read from its guard's classification
 * of the last attempt, never classified again. Immutable.
 *
 * @param syncCall   the call of a synchronous step; {@code null} for an asynchronous one
 * @param asyncCall  the call as a stage (a synchronous step's runs on the caller's thread)
 * @param fallbackOn which outcomes move on to the next step
 * @param onAttempt  sees every attempt of the step with its execution's input (metrics, traces); may be {@code null}
 */
record ChainStep<I, T>(String name, Guard guard, Function<? super I, String> skipWhen,
                       BiFunction<? super I, AttemptContext, ? extends T> syncCall,
                       BiFunction<? super I, AttemptContext, ? extends CompletionStage<T>> asyncCall,
                       Predicate<Outcome> fallbackOn, AttemptListener<? super I> onAttempt) {

    /** A new observer for one call of this step on {@code input}: keeps its last classified attempt. */
    LastAttempt observe(I input) {
        return new LastAttempt(input, null);
    }

    /** Like {@link #observe(Object)}, also running {@code onFirstContent} when an attempt of the step signals its first content. */
    LastAttempt observe(I input, Runnable onFirstContent) {
        return new LastAttempt(input, onFirstContent);
    }

    /**
     * Why this step is not started for {@code input} under {@code deadline}, or {@code null} if it
     * may start: its {@code skipWhen} names a reason, or it cannot fit the time left by its recent
     * median latency ({@link TimeLeft#fits}). Throws what {@code skipWhen} throws.
     */
    StepFailure notStarted(I input, Deadline deadline) {
        String skipReason = skipWhen.apply(input);
        if (skipReason != null) {
            return StepFailure.unservable(name, skipReason);
        }
        if (deadline.isNone()) {
            return null;
        }
        long remaining = deadline.remainingNanos();
        LatencyEstimate latency = guard.latencyEstimate();
        long median = latency == null ? -1L : latency.medianNanos();
        return TimeLeft.fits(remaining, 0L, median) ? null : StepFailure.noTime(name, remaining, median);
    }

    /** Calls the step synchronously under its guard and {@code deadline}. */
    T execute(I input, Deadline deadline, LastAttempt last) {
        return guard.execute(deadline, last, attempt -> syncCall.apply(input, attempt));
    }

    /**
     * Calls the step without blocking under its guard and {@code deadline}; a synchronous step runs
     * on {@code syncOn} when one is given (a hedged synchronous chain), else on this thread.
     */
    CompletableFuture<T> executeAsync(I input, Deadline deadline, LastAttempt last, Executor syncOn) {
        if (syncOn != null && syncCall != null) {
            return guard.executeAsync(deadline, last,
                    attempt -> BlockingCall.start(() -> syncCall.apply(input, attempt), syncOn));
        }
        return guard.executeAsync(deadline, last, attempt -> asyncCall.apply(input, attempt));
    }

    /**
     * The failure of this step to pass over, for a call that threw {@code failure}; throws
     * {@code failure} itself when its outcome is not one to fall back on.
     */
    StepFailure passOrThrow(Throwable failure, LastAttempt attempts) {
        CircuitBreaker breaker = guard.circuitBreaker();
        if (failure instanceof CircuitOpenException open && breaker != null && !breaker.isInnerRejection(open)) {
            // The guard throws its own breaker's rejection only when no attempt was made.
            return StepFailure.circuitOpen(name, open);
        }
        if (failure instanceof BulkheadFullException full) {
            return StepFailure.bulkheadFull(name, full);
        }
        // The guard classified the attempt that failed; only a failure outside any attempt (a
        // throwing result rule or token counter) has not been classified yet.
        AttemptResult last = attempts.result;
        Outcome outcome = last != null && last.cause() == OutcomeClassifier.unwrap(failure) ? last.outcome()
                : guard.classifier().classify(failure);
        if (fallbackOn.test(outcome)) {
            return StepFailure.failed(name, outcome, failure);
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error; // out of memory, say: the caller's own JVM, never wrapped
        }
        throw new IllegalStateException(failure); // a checked exception of an asynchronous call
    }

    /** The failure of this step to pass over for a returned {@code value} its result rules reject; {@code null} if it answers. */
    StepFailure failedResult(T value, LastAttempt attempts) {
        OutcomeClassifier classifier = guard.classifier();
        if (!classifier.hasResultRules()) {
            return null;
        }
        AttemptResult last = attempts.result;
        Outcome outcome = last != null && last.cause() == null ? last.outcome() : classifier.classifyResult(value);
        return outcome.isFailure() && fallbackOn.test(outcome) ? StepFailure.failed(name, outcome, null) : null;
    }

    /** Keeps a call's last classified attempt and hands every attempt to the chain's observer. */
    final class LastAttempt implements AttemptObserver {
        private final I input;
        private final Runnable onFirstContent;
        private volatile AttemptResult result;

        private LastAttempt(I input, Runnable onFirstContent) {
            this.input = input;
            this.onFirstContent = onFirstContent;
        }

        @Override
        public void onAttempt(AttemptResult attempt) {
            result = attempt;
            if (onAttempt != null) {
                onAttempt.onAttempt(input, name, attempt);
            }
        }

        @Override
        public void onFirstContent(AttemptContext attempt) {
            if (onFirstContent != null) {
                onFirstContent.run();
            }
        }
    }
}
