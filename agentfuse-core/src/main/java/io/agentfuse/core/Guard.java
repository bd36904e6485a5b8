package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.event.HedgeListener;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.Timeout;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One object that protects a call with a retry policy, a hedge policy, a circuit breaker, a
 * bulkhead and a timeout, composed in this order, outermost first:
 *
 * <pre>
 *   Retry( Hedge( CircuitBreaker( Bulkhead( Timeout( call ) ) ) ) )
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
 * The guard measures time with its breaker's clock.
 *
 * <p><b>Deadline.</b> The forms that take a {@link Deadline} bound the whole call by it
 * (docs/design.md §13): a retry whose wait plus the guard's recent median latency
 * ({@link LatencyEstimate}) would end past it is not started, and the call ends at once with its
 * last error; every attempt's timeout is cut to the time left, so no attempt outlives it; a
 * deadline already past fails with {@link io.agentfuse.core.timeout.DeadlineExceededException}
 * without a call. The retry policy's own {@code deadline}, if any, applies as well: the sooner wins.
 * Without a deadline nothing is read or allocated for it.
 *
 * <p><b>Hedging.</b> With a {@link HedgePolicy}, an attempt that has produced no result after the
 * policy's delay gets a hedge: the same call, started again beside it (with its own permit and
 * bulkhead place, within the policy's budget and the deadline). The first to produce a result, or
 * to signal its first content ({@link AttemptContext#firstContent()}), wins; the other is cancelled
 * and given back to the breaker unjudged, neither a success nor a failure. A failure waits for the
 * other attempt; the last to fail decides whether to retry. Retries are not hedges: each try may be
 * hedged once. A hedged synchronous call runs its attempts on the policy's executor and waits. A caller that counts or explains attempts (a
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
 *     .hedge(HedgePolicy.builder().afterP95().budget(HedgeBudget.of(0.10, clock)).build())
 *     .build();
 * String answer = guard.execute(() -> client.complete(prompt), () -> "the model is unavailable");
 * String quick = guard.execute(Deadline.after(Duration.ofSeconds(30), clock), () -> client.complete(prompt));
 * CompletableFuture<Stream> stream = guard.executeAsync(deadline, null,
 *     attempt -> client.stream(prompt, firstChunk -> attempt.firstContent()));
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
    private final HedgePolicy hedge;
    private final HedgeListener hedgeListener;
    private final LatencyEstimate latency;
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
        this.hedge = builder.hedge;
        this.hedgeListener = builder.hedgeListener;
        // An adaptive hedge reads its delay from recent latency: without an estimate it could never start.
        this.latency = builder.latency != null || hedge == null || !hedge.isAdaptive() ? builder.latency
                : LatencyEstimate.of(clock);
        this.attempts = new Attempts(name, retry, breaker, clock, classifier, builder.tokens, builder.listener,
                latency, builder.timeout);
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
        Objects.requireNonNull(call, "call");
        if (hedge != null) {
            return SyncExecution.hedged(this, Deadline.none(), observer, attempt -> call.get());
        }
        return SyncExecution.run(this, Deadline.none(), observer, call, false);
    }

    /**
     * Runs {@code call} under the guard within {@code deadline}: no retry is started that cannot
     * fit the time left (its wait plus this guard's recent median latency), and each attempt's
     * timeout is cut to the time left. Throws the last error, or a
     * {@link io.agentfuse.core.timeout.DeadlineExceededException} when the deadline had passed
     * before the first attempt or cut one short.
     */
    public <T> T execute(Deadline deadline, Supplier<T> call) {
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(call, "call");
        if (hedge != null) {
            return SyncExecution.hedged(this, deadline, null, attempt -> call.get());
        }
        return SyncExecution.run(this, deadline, null, call, false);
    }

    /**
     * The full synchronous form: {@code call} gets each attempt's {@link AttemptContext} (its number,
     * the time it has left, the signal of its first content), under {@code deadline}
     * ({@link Deadline#none()} for none), reporting to {@code observer} ({@code null} for none).
     * A guard with a {@link HedgePolicy} runs the attempts on the policy's executor and waits.
     */
    public <T> T execute(Deadline deadline, AttemptObserver observer, Function<? super AttemptContext, ? extends T> call) {
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(call, "call");
        if (hedge != null) {
            return SyncExecution.hedged(this, deadline, observer, call);
        }
        return SyncExecution.run(this, deadline, observer, call, true);
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

    // ---------------------------------------------------------------- asynchronous

    /**
     * Runs {@code call} under the guard without blocking: the returned future completes with the
     * result or the last error, exactly as {@link #execute(Supplier)} returns or throws. Cancelling
     * it cancels the attempt in flight and any pending retry; the cancelled attempt is not held
     * against the breaker (its permission is given back).
     */
    public <T> CompletableFuture<T> executeAsync(Supplier<? extends CompletionStage<T>> call) {
        return executeAsync((AttemptObserver) null, call);
    }

    /** Like {@link #executeAsync(Supplier)}, reporting each attempt's one classification to {@code observer}. */
    public <T> CompletableFuture<T> executeAsync(AttemptObserver observer, Supplier<? extends CompletionStage<T>> call) {
        return new AsyncExecution<T>(this, Deadline.none(), observer, Objects.requireNonNull(call, "call"), false).start();
    }

    /** Like {@link #executeAsync(Supplier)} within {@code deadline}, deciding as {@link #execute(Deadline, Supplier)} does. */
    public <T> CompletableFuture<T> executeAsync(Deadline deadline, Supplier<? extends CompletionStage<T>> call) {
        Objects.requireNonNull(deadline, "deadline");
        return new AsyncExecution<T>(this, deadline, null, Objects.requireNonNull(call, "call"), false).start();
    }

    /**
     * The full asynchronous form, as {@link #execute(Deadline, AttemptObserver, Function)}: {@code call}
     * gets each attempt's {@link AttemptContext}; a call that streams signals its first content
     * there, which is what a hedge races for.
     */
    public <T> CompletableFuture<T> executeAsync(Deadline deadline, AttemptObserver observer,
                                                 Function<? super AttemptContext, ? extends CompletionStage<T>> call) {
        Objects.requireNonNull(deadline, "deadline");
        return new AsyncExecution<T>(this, deadline, observer, Objects.requireNonNull(call, "call"), true).start();
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

    /** Its hedge policy, or {@code null}. */
    public HedgePolicy hedgePolicy() {
        return hedge;
    }

    /** Who hears of its hedges, or {@code null}. */
    HedgeListener hedgeListener() {
        return hedgeListener;
    }

    /**
     * Its recent time to first result, or {@code null} when it keeps none: what the fit rule of a
     * deadline and an adaptive hedge read (a fallback chain reads it for each step).
     */
    public LatencyEstimate latencyEstimate() {
        return latency;
    }

    Clock clock() {
        return clock;
    }

    Attempts attempts() {
        return attempts;
    }

    /** The scheduler its asynchronous waits, timeouts and hedges run on. */
    public Scheduler scheduler() {
        return scheduler;
    }

    Sleeper sleeper() {
        return sleeper;
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
