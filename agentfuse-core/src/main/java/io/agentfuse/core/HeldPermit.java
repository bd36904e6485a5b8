package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;

import java.util.Objects;

/**
 * The one way a call that goes on after its guard returns (a stream) accounts for its end: the
 * breaker permit it started with, held until the call ends, then exactly one outcome recorded
 * against it, with the call's whole duration and the tokens it used, so that a stream counts for
 * every trigger as a complete call does: {@code consecutiveTimeouts} and {@code slowCallRate} see
 * its duration, {@code tokenOveruse} its usage, the failure triggers how it broke
 * (docs/design.md §3, §13).
 *
 * <p>The result of such a call makes one at the start of its attempt and hands it to the guard
 * through {@link LongCall#heldPermit()}; the guard gives it the permit when the attempt returns.
 * The call then reports its end once, with exactly one of:
 * <ul>
 *   <li>{@link #finished(long)}: a clean end after using that many tokens (over the breaker's
 *       token limit it is {@link Outcome#TOKEN_OVERUSE}, else a success);</li>
 *   <li>{@link #broke(Throwable)}: the call failed; classified by the guard's classifier, with the
 *       server's wait if it asked for one, exactly as a failed attempt is;</li>
 *   <li>{@link #failed(Outcome)}: the call failed in a way the caller has already classified
 *       (an error event inside a stream, a cut);</li>
 *   <li>{@link #released()}: the call ended for a reason that is not the callee's (the caller left,
 *       an answer the caller could not take): nothing is held against it.</li>
 * </ul>
 * Later reports do nothing. An end that comes before the guard has handed over the permit (a short
 * stream may end on another thread before its first chunk has left the guard) is kept and
 * recorded at the hand-over, with the duration the guard measured up to then.
 *
 * <p>The duration runs from the start of the attempt, as the guard timed it, to the end, on the
 * breaker's own clock for call durations; a breaker that times no calls gets "not measured".
 * Without a breaker (or when the guard never hands the permit over) nothing is recorded.
 *
 * <p>Thread-safe: the guard's hand-over and the end may come from different threads.
 *
 * <pre>{@code
 * final class Answer implements LongCall {
 *     private final HeldPermit permit = new HeldPermit(guard);
 *     public HeldPermit heldPermit() { return permit; }
 *     void onComplete(Usage usage) { permit.finished(usage.total()); }
 *     void onError(Throwable error) { permit.broke(error); }
 *     void onCancel()               { permit.released(); }
 * }
 * }</pre>
 */
public final class HeldPermit {

    private final Guard guard;
    private CircuitBreaker breaker;
    private long permit;
    /** The clock durations are read from, or {@code null} when the breaker times no calls. */
    private Clock timer;
    private long startNanos;
    private boolean ended;
    /** How the call ended: {@code null} for a release. */
    private Outcome outcome;
    private long tokens;
    private long retryAfterNanos = RetryAfter.NONE;

    /** A permit to be held under {@code guard}, whose classifier and clock judge a broken end. */
    public HeldPermit(Guard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /**
     * The guard's hand-over: {@code permit} of {@code breaker}, for an attempt that has run
     * {@code elapsedNanos} so far on {@code timer} ({@code null} and -1 when calls are not timed).
     */
    synchronized void hold(CircuitBreaker breaker, long permit, Clock timer, long elapsedNanos) {
        this.breaker = breaker;
        this.permit = permit;
        this.timer = elapsedNanos < 0 ? null : timer; // an attempt not timed from its start is not timed at all
        this.startNanos = this.timer == null ? 0L : timer.nanoTime() - elapsedNanos;
        if (ended) {
            record(); // the call ended before the guard handed the permit over
        }
    }

    /** The call ended cleanly after using {@code tokens} (0 when unknown). */
    public void finished(long tokens) {
        end(Outcome.SUCCESS, tokens, RetryAfter.NONE);
    }

    /**
     * The call failed with {@code error}: classified once, by the guard's classifier, and recorded
     * with the wait the server asked for, if any.
     *
     * @return the outcome {@code error} was classified as (for metrics and the caller's error)
     */
    public Outcome broke(Throwable error) {
        Throwable cause = OutcomeClassifier.unwrap(error);
        Outcome kind = guard.classifier().classify(cause);
        end(kind, 0L, RetryAfter.ofError(cause, guard.clock().epochMillis()));
        return kind;
    }

    /** The call failed as {@code outcome}, classified by the caller, with no server hint. */
    public void failed(Outcome outcome) {
        end(Objects.requireNonNull(outcome, "outcome"), 0L, RetryAfter.NONE);
    }

    /** The call ended for a reason that is not the callee's fault: the permit is given back unjudged. */
    public void released() {
        end(null, 0L, RetryAfter.NONE);
    }

    private synchronized void end(Outcome outcome, long tokens, long retryAfterNanos) {
        if (ended) {
            return;
        }
        ended = true;
        this.outcome = outcome;
        this.tokens = tokens;
        this.retryAfterNanos = retryAfterNanos;
        if (breaker != null) {
            record();
        }
    }

    /** Records the end against the permit; called once, holding the lock, with both halves known. */
    private void record() {
        long duration = timer == null ? -1L : timer.nanoTime() - startNanos;
        if (outcome == null) {
            breaker.release(permit);
        } else if (outcome == Outcome.SUCCESS) {
            breaker.onSuccess(permit, duration, tokens); // over the token limit it is TOKEN_OVERUSE
        } else {
            breaker.onOutcome(permit, outcome, duration, retryAfterNanos);
        }
    }
}
