package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.event.HedgeListener;
import io.agentfuse.core.event.RetryListener;
import io.agentfuse.core.hedge.HedgePolicy;
import io.agentfuse.core.internal.Checks;
import io.agentfuse.core.retry.RetryPolicy;

import java.time.Duration;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Collects the parts of a {@link Guard}. Every part is optional: without a retry policy the guard
 * makes one attempt, without a breaker nothing is recorded, and so on. Not thread-safe; the guard
 * it builds is.
 *
 * <p>Defaults: no retry, no hedge, no breaker, no bulkhead, no timeout, no latency estimate (one
 * is made when an adaptive hedge needs it), the breaker's clock (or the system clock), the shared
 * scheduler, {@link Sleeper#system()}, the breaker's classifier (or the default one). A guard and
 * its breaker keep one time: a clock given here that is not the breaker's is an error.
 *
 * <pre>{@code
 * Guard guard = Guard.builder("tool:search/web_search")
 *     .retry(RetryPolicy.builder().maxAttempts(3).build())
 *     .circuitBreaker(breaker)
 *     .timeout(Duration.ofSeconds(30))
 *     .latencyEstimate(LatencyEstimate.of(clock))   // so that a deadline judges its retries by it
 *     .build();
 * }</pre>
 */
public final class GuardBuilder {

    final String name;
    RetryPolicy retry = RetryPolicy.none();
    CircuitBreaker breaker;
    Bulkhead bulkhead;
    Duration timeout;
    Clock clock;
    Scheduler scheduler = Scheduler.shared();
    Sleeper sleeper = Sleeper.system();
    OutcomeClassifier classifier;
    ToLongFunction<Object> tokens;
    RetryListener listener;
    HedgePolicy hedge;
    HedgeListener hedgeListener;
    LatencyEstimate latency;

    GuardBuilder(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The retry policy; default {@link RetryPolicy#none()}. */
    public GuardBuilder retry(RetryPolicy retry) {
        this.retry = Objects.requireNonNull(retry, "retry");
        return this;
    }

    /** The breaker every attempt asks and reports to. */
    public GuardBuilder circuitBreaker(CircuitBreaker breaker) {
        this.breaker = breaker;
        return this;
    }

    /** The bulkhead every attempt takes a place in. */
    public GuardBuilder bulkhead(Bulkhead bulkhead) {
        this.bulkhead = bulkhead;
        return this;
    }

    /** The limit on each attempt (not on the whole call: see {@link RetryPolicy#deadline()}). */
    public GuardBuilder timeout(Duration timeout) {
        if (timeout != null) {
            Checks.positive("timeout", timeout);
        }
        this.timeout = timeout;
        return this;
    }

    /** The clock for durations and deadlines; default the breaker's (it must be the same one). */
    public GuardBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /** The scheduler for asynchronous waits and timeouts. */
    public GuardBuilder scheduler(Scheduler scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        return this;
    }

    /** A {@link ManualClock} as clock, scheduler and sleeper at once: the way tests build guards. */
    public GuardBuilder manualClock(ManualClock clock) {
        this.clock = clock;
        this.scheduler = clock;
        this.sleeper = clock::sleep;
        return this;
    }

    /** How synchronous retries wait. */
    public GuardBuilder sleeper(Sleeper sleeper) {
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        return this;
    }

    /** The classifier for results and errors; default the breaker's. */
    public GuardBuilder classifier(OutcomeClassifier classifier) {
        this.classifier = classifier;
        return this;
    }

    /** How many tokens a successful result used, for the breaker's {@code tokenOveruse} trigger. */
    public GuardBuilder tokens(ToLongFunction<Object> tokens) {
        this.tokens = tokens;
        return this;
    }

    /** Receives retry events. */
    public GuardBuilder retryListener(RetryListener listener) {
        this.listener = listener;
        return this;
    }

    /** Races a slow attempt with a second one ({@link HedgePolicy}); default none. */
    public GuardBuilder hedge(HedgePolicy hedge) {
        this.hedge = hedge;
        return this;
    }

    /** Receives hedge events; default none. */
    public GuardBuilder hedgeListener(HedgeListener listener) {
        this.hedgeListener = listener;
        return this;
    }

    /**
     * Where the guard records its recent time to first result, which a deadline's fit rule and an
     * adaptive hedge read; share one per step across rebuilt guards to keep what it learnt.
     * Default none (attempts are then not timed for it), except that an adaptive hedge makes one.
     */
    public GuardBuilder latencyEstimate(LatencyEstimate latency) {
        this.latency = latency;
        return this;
    }

    /** The immutable guard; throws if its clock is not its breaker's. */
    public Guard build() {
        if (breaker != null) {
            if (clock == null) {
                clock = breaker.clock();
            } else if (clock != breaker.clock()) {
                throw new IllegalArgumentException("clock must be the breaker's clock (" + breaker.clock()
                        + "), but was " + clock + ": a guard and its breaker measure one time");
            }
        } else if (clock == null) {
            clock = Clock.system();
        }
        return new Guard(this);
    }
}
