package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.fallback.FallbackChain;
import io.agentfuse.core.retry.Jitter;
import io.agentfuse.core.retry.RetryBudget;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.Timeout;

import io.agentfuse.core.event.RetryListener;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * One object that protects a call with a retry policy, a circuit breaker, a bulkhead and a
 * timeout, composed in this order, outermost first:
 *
 * <pre>
 *   Retry( CircuitBreaker( Bulkhead( Timeout( call ) ) ) )
 * </pre>
 *
 * Why this order: the retry sits outside the breaker so that every attempt asks the breaker and
 * is recorded by it, and so that retrying stops at once when an attempt opens it; the breaker
 * sits outside the bulkhead so that an open breaker rejects without taking a place, and a full
 * bulkhead (a local limit, not the callee's fault) is never counted as a failure; the timeout is
 * innermost so that it measures the call alone, not the queueing for a place. A
 * {@link FallbackChain} wraps guards, one per step.
 *
 * <p>Each part is optional. The synchronous {@link #execute(Supplier)} waits between attempts with
 * the injected {@link Sleeper}; on its success path it allocates nothing (without a timeout). The
 * asynchronous {@link #executeAsync(Supplier)} never blocks a thread: waits go through the
 * {@link Scheduler}. Both give up with the last error once retries are exhausted, the budget or
 * deadline forbids another attempt, or the breaker rejects.
 *
 * <p>Built once, immutable, thread-safe; share it across calls.
 *
 * <pre>{@code
 * Guard guard = Guard.builder("model:claude-sonnet-4")
 *     .retry(RetryPolicy.defaults())
 *     .circuitBreaker(CircuitBreaker.of("model:claude-sonnet-4", CircuitBreakerConfig.defaults()))
 *     .bulkhead(Bulkhead.of("claude", 64))
 *     .timeout(Duration.ofSeconds(60))
 *     .build();
 * String answer = guard.execute(() -> client.complete(prompt), () -> "the model is unavailable");
 * }</pre>
 */
public final class Guard {

    private final String name;
    private final RetryPolicy retry;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    private final Timeout timeout;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Sleeper sleeper;
    private final OutcomeClassifier classifier;
    private final ToLongFunction<Object> tokens;
    private final RetryListener listener;

    Guard(GuardBuilder builder) {
        this.name = builder.name;
        this.retry = builder.retry;
        this.breaker = builder.breaker;
        this.bulkhead = builder.bulkhead;
        this.clock = builder.clock;
        this.scheduler = builder.scheduler;
        this.sleeper = builder.sleeper;
        this.timeout = builder.timeout == null ? null : Timeout.of(builder.timeout, builder.scheduler);
        this.classifier = builder.classifier != null ? builder.classifier
                : breaker != null ? breaker.config().classifier() : OutcomeClassifier.defaults();
        this.tokens = builder.tokens;
        this.listener = builder.listener;
    }

    /** A builder for a guard named {@code name} (used in events and errors). */
    public static GuardBuilder builder(String name) {
        return new GuardBuilder(name);
    }

    // ---------------------------------------------------------------- synchronous

    /** Runs {@code call} under the guard; returns its result or throws the last error. */
    public <T> T execute(Supplier<T> call) {
        long deadline = deadlineFromNow();
        long previousDelay = retry.initialDelay().toNanos();
        RuntimeException lastFailure = null;
        for (int attempt = 1; ; attempt++) {
            T result;
            try {
                result = attempt(call, attempt == 1);
            } catch (CircuitOpenException | BulkheadFullException rejected) {
                // A retry refused by the breaker (opened meanwhile by another caller) or a full
                // bulkhead: the caller learns more from the failure that led to the retry.
                throw lastFailure != null ? lastFailure : rejected;
            } catch (RuntimeException | Error failure) {
                long delay = nextDelayNanos(attempt, previousDelay, classifier.classify(failure), failure, deadline);
                if (delay < 0) {
                    throw failure;
                }
                sleep(delay, failure);
                previousDelay = delay;
                lastFailure = failure instanceof RuntimeException runtime ? runtime : null;
                continue;
            }
            if (!classifier.hasResultRules()) {
                return result;
            }
            long delay = nextDelayNanos(attempt, previousDelay, classifier.classifyResult(result), null, deadline);
            if (delay < 0) {
                return result;
            }
            sleep(delay, null);
            previousDelay = delay;
        }
    }

    /** The seed's {@code execute(fn, fallback)}: {@code fallback} answers when the guarded call fails or is rejected. */
    public <T> T execute(Supplier<T> call, Supplier<? extends T> fallback) {
        try {
            return execute(call);
        } catch (RuntimeException failure) {
            return fallback.get();
        }
    }

    /** Like {@link #execute(Supplier, Supplier)}, handing the failure to the fallback. */
    public <T> T execute(Supplier<T> call, Function<? super RuntimeException, ? extends T> fallback) {
        try {
            return execute(call);
        } catch (RuntimeException failure) {
            return fallback.apply(failure);
        }
    }

    private <T> T attempt(Supplier<T> call, boolean first) {
        if (breaker != null) {
            breaker.acquirePermission();
        }
        if (bulkhead != null) {
            try {
                bulkhead.acquire();
            } catch (BulkheadFullException full) {
                releaseBreakerPermission();
                throw full;
            }
        }
        if (first) {
            depositToBudget();
        }
        // The clock is read only when the breaker would use the duration: two reads cost more
        // than the rest of a successful attempt.
        boolean timed = breaker != null && breaker.timesCalls();
        long start = timed ? clock.nanoTime() : 0L;
        T result;
        try {
            result = timeout == null ? call.get() : timeout.call(call);
        } catch (RuntimeException | Error failure) {
            recordFailure(failure, timed ? clock.nanoTime() - start : -1L);
            throw failure;
        } finally {
            if (bulkhead != null) {
                bulkhead.release();
            }
        }
        // Outside the try: a result rule or token counter that throws is not the call's failure.
        recordResult(result, timed ? clock.nanoTime() - start : -1L);
        return result;
    }

    private void sleep(long delayNanos, Throwable cause) {
        try {
            sleeper.sleep(delayNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("interrupted while waiting to retry " + name, e);
        }
    }

    // ---------------------------------------------------------------- asynchronous

    /**
     * Runs {@code call} under the guard without blocking: the returned future completes with the
     * result or the last error. Cancelling it cancels the attempt in flight and any pending retry;
     * the cancelled attempt is not held against the breaker (its permission is given back).
     */
    public <T> CompletableFuture<T> executeAsync(Supplier<? extends CompletionStage<T>> call) {
        return new AsyncExecution<>(this, call, deadlineFromNow()).start();
    }

    // ---------------------------------------------------------------- shared by both paths

    /**
     * Counts a call in the retry budget once its first attempt is really made: a call that the
     * breaker or bulkhead turned away sent nothing, and counting it would let an outage (every
     * call rejected) raise everybody's retry allowance.
     */
    void depositToBudget() {
        RetryBudget budget = retry.budget();
        if (budget != null) {
            budget.deposit();
        }
    }

    /**
     * The wait before the next attempt, or -1 to give up: no attempts left, an outcome not worth
     * retrying, a breaker that has opened, a wait past the deadline, or an empty budget.
     */
    long nextDelayNanos(int attemptsMade, long previousDelay, Outcome outcome, Throwable error, long deadline) {
        if (!outcome.isFailure() && outcome != Outcome.CLIENT_ERROR) {
            return -1;
        }
        boolean retryable = attemptsMade < retry.maxAttempts() && retry.isRetryable(outcome, error)
                && (breaker == null || !breaker.state().rejectsCalls());
        long delay = retryable
                ? retry.delayNanos(attemptsMade, previousDelay, error, clock.epochMillis(), random())
                : -1;
        if (delay >= 0 && deadline != Long.MAX_VALUE && clock.nanoTime() + delay - deadline > 0) {
            delay = -1;
        }
        if (delay >= 0 && retry.budget() != null && !retry.budget().tryWithdraw()) {
            delay = -1;
        }
        if (listener != null) {
            if (delay >= 0) {
                listener.onRetryScheduled(name, attemptsMade + 1, delay, error);
            } else if (retry.isRetryable(outcome, error)) {
                // Only a failure worth retrying can exhaust the retries; a 4xx never started them.
                listener.onRetriesExhausted(name, attemptsMade, error);
            }
        }
        return delay;
    }

    private double random() {
        return retry.jitter() == Jitter.NONE ? 0.0 : ThreadLocalRandom.current().nextDouble();
    }

    private long deadlineFromNow() {
        return retry.deadline() == null ? Long.MAX_VALUE : clock.nanoTime() + retry.deadline().toNanos();
    }

    void recordResult(Object result, long durationNanos) {
        if (breaker == null) {
            return;
        }
        Outcome outcome = classifier.hasResultRules() ? classifier.classifyResult(result) : Outcome.SUCCESS;
        if (outcome == Outcome.SUCCESS && tokens != null) {
            long used;
            try {
                used = tokens.applyAsLong(result);
            } catch (RuntimeException e) {
                // The call succeeded; record it so that a half-open probe's permit is not lost.
                breaker.onOutcome(Outcome.SUCCESS, durationNanos);
                throw e;
            }
            breaker.onSuccess(durationNanos, used);
        } else {
            breaker.onOutcome(outcome, durationNanos);
        }
    }

    void recordFailure(Throwable failure, long durationNanos) {
        if (breaker != null) {
            breaker.onOutcome(classifier.classify(failure), durationNanos,
                    Math.max(0L, RetryAfter.ofError(failure, clock.epochMillis())));
        }
    }

    void releaseBreakerPermission() {
        if (breaker != null) {
            breaker.releasePermission();
        }
    }

    /** The guard's name. */
    public String name() {
        return name;
    }

    /** Its retry policy ({@link RetryPolicy#none()} when it does not retry). */
    public RetryPolicy retryPolicy() {
        return retry;
    }

    /** Its breaker, or {@code null}. */
    public CircuitBreaker circuitBreaker() {
        return breaker;
    }

    /** Its bulkhead, or {@code null}. */
    public Bulkhead bulkhead() {
        return bulkhead;
    }

    /** Its timeout, or {@code null}. */
    public Timeout timeout() {
        return timeout;
    }

    Clock clock() {
        return clock;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    /** The classifier its attempts are judged by. */
    public OutcomeClassifier classifier() {
        return classifier;
    }

    @Override
    public String toString() {
        return "Guard[" + name + "]";
    }
}
