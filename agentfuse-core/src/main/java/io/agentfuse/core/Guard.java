package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.Timeout;

import io.agentfuse.core.event.RetryListener;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 * {@link io.agentfuse.core.fallback.FallbackChain} wraps guards, one per step.
 *
 * <p>Each part is optional. The synchronous {@link #execute(Supplier)} waits between attempts with
 * the injected {@link Sleeper}; on its success path it allocates nothing (without a timeout). The
 * asynchronous {@link #executeAsync(Supplier)} never blocks a thread: waits go through the
 * {@link Scheduler}. Both make every decision in one shared place (each attempt classified once
 * into an {@link AttemptResult}; retry, give up or stop decided from it), so they end alike: with
 * the last error once retries are exhausted, the budget or deadline forbids another attempt, or
 * the breaker rejects a retry (a call that was made never ends as {@code CircuitOpenException});
 * with the rejection only when nothing was called. A server's wait ({@code Retry-After} and its
 * relatives) that fits {@code maxDelay} and the deadline is waited out; a longer one ends the call
 * at once, so a fallback chain moves on, and holds the breaker open that long. A breaker's
 * rejection from inside the call (a nested breaker) is neither retried nor held against this
 * guard's breaker; a {@link LongCall} result (a stream) records its own end against its permit.
 * The guard measures time with its breaker's clock. A caller that counts or explains attempts (a
 * fallback chain, metrics) passes an {@link AttemptObserver} and reads each attempt's one
 * classification instead of classifying again.
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
    private final Attempts attempts;

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
        this.attempts = new Attempts(name, retry, breaker, clock, classifier, tokens, listener);
    }

    /** A builder for a guard named {@code name} (used in events and errors). */
    public static GuardBuilder builder(String name) {
        return new GuardBuilder(name);
    }

    // ---------------------------------------------------------------- synchronous

    /** Runs {@code call} under the guard; returns its result or throws the last error. */
    public <T> T execute(Supplier<T> call) {
        return execute((AttemptObserver) null, call);
    }

    /**
     * Like {@link #execute(Supplier)}, reporting each attempt's one classification to
     * {@code observer} (a fallback chain reads why its step failed from it; {@code null} for none).
     */
    public <T> T execute(AttemptObserver observer, Supplier<T> call) {
        long deadline = attempts.deadlineFromNow();
        long previousDelay = attempts.firstDelayNanos();
        AttemptResult last = null;
        Throwable lastFailure = null;
        T lastValue = null;
        for (int attempt = 1; ; attempt++) {
            long permit;
            try {
                permit = acquire();
            } catch (CircuitOpenException | BulkheadFullException rejected) {
                if (last != null && last.cause() == null) {
                    return lastValue; // the call was made and answered; a refused retry does not undo that
                }
                Throwable stopped = Attempts.stopped(lastFailure, rejected);
                if (stopped instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) stopped;
            }
            if (attempt == 1) {
                attempts.depositToBudget();
            }
            Clock timer = attempts.timer();
            long start = timer == null ? 0L : timer.nanoTime();
            T result;
            try {
                result = timeout == null ? call.get() : timeout.call(call);
            } catch (RuntimeException | Error failure) {
                releaseBulkhead();
                AttemptResult failed = attempts.failed(permit, failure, Attempts.elapsedSince(timer, start));
                Attempts.report(observer, failed);
                long delay = attempts.nextDelayNanos(attempt, previousDelay, failed, deadline);
                if (delay < 0) {
                    throw failure;
                }
                sleep(delay, failure);
                previousDelay = delay;
                last = failed;
                lastFailure = failure;
                continue;
            }
            releaseBulkhead();
            // Outside the try: a result rule or token counter that throws is not the call's failure.
            long elapsed = Attempts.elapsedSince(timer, start);
            AttemptResult returned = attempts.returned(permit, result, elapsed);
            Attempts.reportReturned(observer, returned, elapsed);
            long delay = returned == null ? -1 : attempts.nextDelayNanos(attempt, previousDelay, returned, deadline);
            if (delay < 0) {
                return result;
            }
            sleep(delay, null);
            previousDelay = delay;
            last = returned;
            lastFailure = null;
            lastValue = result;
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

    /** Takes the breaker's permit and a bulkhead place; throws the rejection if either refuses. */
    private long acquire() {
        long permit = breaker == null ? Attempts.NO_BREAKER : breaker.acquirePermission();
        if (bulkhead != null) {
            try {
                bulkhead.acquire();
            } catch (BulkheadFullException full) {
                attempts.release(permit);
                throw full;
            }
        }
        return permit;
    }

    private void releaseBulkhead() {
        if (bulkhead != null) {
            bulkhead.release();
        }
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
     * result or the last error, exactly as {@link #execute(Supplier)} returns or throws. Cancelling
     * it cancels the attempt in flight and any pending retry; the cancelled attempt is not held
     * against the breaker (its permission is given back).
     */
    public <T> CompletableFuture<T> executeAsync(Supplier<? extends CompletionStage<T>> call) {
        return executeAsync(null, call);
    }

    /** Like {@link #executeAsync(Supplier)}, reporting each attempt's one classification to {@code observer}. */
    public <T> CompletableFuture<T> executeAsync(AttemptObserver observer, Supplier<? extends CompletionStage<T>> call) {
        return new AsyncExecution<>(this, observer, call, attempts.deadlineFromNow()).start();
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

    Attempts attempts() {
        return attempts;
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
