package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.event.RetryListener;
import io.agentfuse.core.internal.TimeLeft;
import io.agentfuse.core.retry.Jitter;
import io.agentfuse.core.retry.RetryBudget;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.DeadlineExceededException;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToLongFunction;

/**
 * The decisions about one attempt of a {@link Guard}, shared by its synchronous and asynchronous
 * paths so that the two cannot disagree: how an attempt is classified (once, into an
 * {@link AttemptResult}) and recorded against its permit and in the step's {@link LatencyEstimate},
 * whether and how long to wait before the next one (within the deadline, by the fit rule), how
 * long an attempt may run, and what a call ends with when a retry is refused. Immutable and thread-safe.
 */
final class Attempts {

    /** The permit of an attempt when there is no breaker to ask. */
    static final long NO_BREAKER = -1L;

    private final String name;
    private final RetryPolicy retry;
    private final CircuitBreaker breaker;
    private final Clock clock;
    private final OutcomeClassifier classifier;
    private final ToLongFunction<Object> tokens;
    private final RetryListener listener;
    private final LatencyEstimate latency;
    /** The clock attempts are timed with for the latency estimate when the breaker times none; null without an estimate. */
    private final Clock latencyClock;
    private final long timeoutNanos;
    // Read from the policy once: on the success path of every call, a call to a method whose
    // return type was never loaded (no budget configured) is not inlined, and costs more than the rest.
    private final RetryBudget budget;
    private final long firstDelayNanos;
    private final long deadlineNanos;
    /**
     * The last result class seen that is not a {@link LongCall}. An {@code instanceof} test against
     * an interface that fails scans the class's interfaces every time (HotSpot caches only hits):
     * about 17 ns, more than the rest of a successful attempt. A guard returns one type nearly
     * always, so one class comparison settles it. Written without synchronisation on purpose: a
     * stale or lost write only costs one more {@code instanceof}.
     */
    private Class<?> plainResultType;

    Attempts(String name, RetryPolicy retry, CircuitBreaker breaker, Clock clock, OutcomeClassifier classifier,
             ToLongFunction<Object> tokens, RetryListener listener, LatencyEstimate latency, Duration timeout) {
        this.name = name;
        this.retry = retry;
        this.breaker = breaker;
        this.clock = clock;
        this.classifier = classifier;
        this.tokens = tokens;
        this.listener = listener;
        this.latency = latency;
        this.latencyClock = latency == null ? null : clock;
        this.timeoutNanos = timeout == null ? TimeLeft.NO_DEADLINE : timeout.toNanos();
        this.budget = retry.budget();
        this.firstDelayNanos = retry.initialDelay().toNanos();
        this.deadlineNanos = retry.deadline() == null ? Long.MAX_VALUE : retry.deadline().toNanos();
    }

    /**
     * What a call ends with when a retry is refused by the breaker or the bulkhead: the failure that
     * led to the retry if an attempt was made (the step was called, so it must not be reported as
     * skipped), else the rejection itself (nothing was called). The one place this is decided.
     */
    static Throwable stopped(Throwable lastFailure, RuntimeException rejection) {
        return lastFailure != null ? lastFailure : rejection;
    }

    /**
     * Counts a call in the retry budget once its first attempt is really made: a call that the
     * breaker or bulkhead turned away sent nothing, and counting it would let an outage (every
     * call rejected) raise everybody's retry allowance.
     */
    void depositToBudget() {
        if (budget != null) {
            budget.deposit();
        }
    }

    /**
     * The clock an attempt is timed with, or {@code null} when nobody uses the duration: reading
     * the clock twice costs more than the rest of a successful attempt.
     */
    Clock timer() {
        return breaker != null && breaker.timesCalls() ? breaker.clock() : latencyClock;
    }

    static long elapsedSince(Clock timer, long start) {
        return timer == null ? -1L : timer.nanoTime() - start;
    }

    /**
     * Classifies a failed attempt once and records it against {@code permit} and, when
     * {@code sample} (its first result was not sampled already), in the latency estimate.
     */
    AttemptResult failed(long permit, Throwable failure, long durationNanos, boolean sample) {
        Throwable cause = OutcomeClassifier.unwrap(failure);
        AttemptResult result = AttemptResult.failure(classifier.classify(cause), cause, durationNanos,
                RetryAfter.ofError(cause, clock.epochMillis()));
        if (sample && result.outcome() == Outcome.TIMEOUT && !(cause instanceof DeadlineExceededException)) {
            sampleLatency(durationNanos); // it ran into its own limit: the step is at least that slow now
        }
        if (breaker != null) {
            if (breaker.isInnerRejection(cause) || cause instanceof DeadlineExceededException cut && !cut.showsSlowCallee(medianNanos())) {
                breaker.release(permit); // refused further in, or cut by a deadline too short to judge the callee by
            } else {
                breaker.onResult(permit, result);
            }
        }
        return result;
    }

    /**
     * Classifies a normal return once (result rules, then the breaker's token limit) and records it
     * against {@code permit}, unless it is a {@link LongCall} whose {@link HeldPermit} takes the permit to
     * record its own end; {@code null} for a plain success, which needs no decision (and so allocates nothing).
     * A call that returned produced its result: with {@code sample}, its duration is a latency sample.
     */
    AttemptResult returned(long permit, Object value, long durationNanos, boolean sample) {
        if (sample) {
            sampleLatency(durationNanos);
        }
        Outcome outcome = classifier.hasResultRules() ? classifier.classifyResult(value) : Outcome.SUCCESS;
        if (outcome == Outcome.SUCCESS && breaker != null && isLongCall(value)) {
            HeldPermit held = ((LongCall) value).heldPermit();
            if (held != null) {
                held.hold(breaker, permit, timer(), durationNanos);
                return null; // a stream: it records its final outcome against the permit when it ends
            }
        }
        long used = 0L;
        if (outcome == Outcome.SUCCESS && tokens != null && breaker != null) {
            used = countTokens(permit, value, durationNanos);
            if (used > breaker.tokenLimit()) {
                outcome = Outcome.TOKEN_OVERUSE;
            }
        }
        if (breaker != null) {
            breaker.onOutcome(permit, outcome, durationNanos, RetryAfter.NONE);
        }
        return outcome == Outcome.SUCCESS ? null : AttemptResult.returned(outcome, durationNanos, used);
    }

    private boolean isLongCall(Object value) {
        if (value == null || value.getClass() == plainResultType) {
            return false;
        }
        if (value instanceof LongCall) {
            return true;
        }
        plainResultType = value.getClass();
        return false;
    }

    private long countTokens(long permit, Object value, long durationNanos) {
        try {
            return tokens.applyAsLong(value);
        } catch (RuntimeException e) {
            // The call succeeded; record it so that a half-open probe's permit is not lost.
            breaker.onOutcome(permit, Outcome.SUCCESS, durationNanos, RetryAfter.NONE);
            throw e;
        }
    }

    /** Records a time to first result in the latency estimate, if the guard keeps one. */
    void sampleLatency(long nanos) {
        if (latency != null) {
            latency.record(nanos);
        }
    }

    /** The step's recent median time to first result, or -1 when unknown (no estimate, too few samples). */
    long medianNanos() {
        return latency == null ? -1L : latency.medianNanos();
    }

    /**
     * The limit of an attempt starting now under {@code deadline}: the timeout cut to the time
     * left ({@link TimeLeft#NO_DEADLINE} when there is neither).
     */
    long attemptLimitNanos(long deadline) {
        return deadline == TimeLeft.NO_DEADLINE ? timeoutNanos
                : TimeLeft.attemptLimit(TimeLeft.remaining(deadline, clock.nanoTime()), timeoutNanos);
    }

    /** Whether an attempt limit was set by the deadline, not by the timeout. */
    boolean cutByDeadline(long limitNanos) {
        return TimeLeft.cutByDeadline(limitNanos, timeoutNanos);
    }

    /** Hands {@code result} to {@code observer}, if there is one. */
    static void report(AttemptObserver observer, AttemptResult result) {
        if (observer != null) {
            observer.onAttempt(result);
        }
    }

    /** Reports a normal return: {@code result}, or for a plain success (null) a SUCCESS made only for the observer. */
    static void reportReturned(AttemptObserver observer, AttemptResult result, long durationNanos) {
        if (observer != null) {
            observer.onAttempt(result != null ? result : AttemptResult.returned(Outcome.SUCCESS, durationNanos, 0L));
        }
    }

    /** Gives back {@code permit} for an attempt that was not made or whose caller gave up. */
    void release(long permit) {
        if (breaker != null) {
            breaker.release(permit);
        }
    }

    /**
     * The wait before the next attempt, or -1 to give up: no attempts left, an outcome not worth
     * retrying, a breaker that has opened, a wait and attempt that cannot fit the time left before
     * {@code deadline} (the fit rule, {@link TimeLeft#fits}: the wait plus the step's recent median),
     * or an empty budget. A server's wait too long to make under the policy's own limits
     * ({@code maxDelay}, its {@code deadline} at {@code policyDeadline}: docs/design.md §4, wait or
     * fall over) gives up at once and holds the breaker open that long, so the chain moves on to its
     * next step; one that is only too long for this request's deadline gives up without holding the
     * breaker, since other requests may still wait it out.
     */
    long nextDelayNanos(int attemptsMade, long previousDelay, AttemptResult result, long policyDeadline,
                        long deadline) {
        Outcome outcome = result.outcome();
        Throwable error = result.cause();
        if (!outcome.isFailure() && outcome != Outcome.CLIENT_ERROR) {
            return -1;
        }
        // A rejection further in is not worth an immediate retry: that breaker is open.
        boolean worthRetrying = retry.isRetryable(outcome, error) && !(error instanceof CircuitOpenException);
        long now = deadline == TimeLeft.NO_DEADLINE ? 0L : clock.nanoTime();
        if (worthRetrying && result.hasRetryAfter() && retry.honorRetryAfter()
                && !retry.waitsOut(result.retryAfterNanos(), TimeLeft.remaining(policyDeadline, now))) {
            if (breaker != null) {
                breaker.holdOpen(result.retryAfterNanos(), "the server asked for a wait of "
                        + Duration.ofNanos(result.retryAfterNanos()) + ", longer than a retry waits");
            }
            return exhausted(attemptsMade, error);
        }
        boolean retryable = worthRetrying && attemptsMade < retry.maxAttempts()
                && (breaker == null || !breaker.state().rejectsCalls());
        long delay = retryable ? retry.delayNanos(attemptsMade, previousDelay, result.retryAfterNanos(), random()) : -1;
        if (delay >= 0 && deadline != TimeLeft.NO_DEADLINE
                && !TimeLeft.fits(TimeLeft.remaining(deadline, now), delay, medianNanos())) {
            delay = -1;
            if (listener != null) {
                listener.onRetryRefusedByDeadline(name, attemptsMade, error, TimeLeft.remaining(deadline, now));
            }
        } else if (delay >= 0 && budget != null && !budget.tryWithdraw()) {
            delay = -1;
            if (listener != null) {
                listener.onRetryRefusedByBudget(name, attemptsMade, error);
            }
        }
        if (delay >= 0) {
            if (listener != null) {
                listener.onRetryScheduled(name, attemptsMade + 1, delay, error);
            }
            return delay;
        }
        // Only a failure worth retrying can exhaust the retries; a 4xx never started them.
        return worthRetrying ? exhausted(attemptsMade, error) : -1;
    }

    private long exhausted(int attemptsMade, Throwable error) {
        if (listener != null) {
            listener.onRetriesExhausted(name, attemptsMade, error);
        }
        return -1;
    }

    private double random() {
        return retry.jitter() == Jitter.NONE ? 0.0 : ThreadLocalRandom.current().nextDouble();
    }

    /** The monotonic deadline of the retry policy for a call starting now, or {@link TimeLeft#NO_DEADLINE} if none. */
    long policyDeadlineFromNow() {
        return deadlineNanos == TimeLeft.NO_DEADLINE ? TimeLeft.NO_DEADLINE : TimeLeft.deadlineAfter(clock.nanoTime(), deadlineNanos);
    }

    /** The sooner of the policy's deadline ({@code policyDeadline}) and the request's {@code deadline}, on the guard's clock. */
    long deadlineOf(long policyDeadline, Deadline deadline) {
        return deadline.isNone() ? policyDeadline : TimeLeft.sooner(policyDeadline, deadline.nanoTimeOn(clock));
    }

    /** The delay a first retry's backoff starts from: the policy's initial delay. */
    long firstDelayNanos() {
        return firstDelayNanos;
    }
}
