package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;

/**
 * Records outcomes against a breaker's current state, as if the call had taken the permit of the
 * state the breaker is in now: the shorthand tests use to drive a breaker into a state without
 * carrying permits around. Production code always reports with the permit {@code acquire()} gave.
 */
public final class Unstamped {

    private Unstamped() {
    }

    /** Records {@code outcome} after {@code durationNanos}. */
    public static void outcome(CircuitBreaker breaker, Outcome outcome, long durationNanos) {
        outcome(breaker, outcome, durationNanos, RetryAfter.NONE);
    }

    /** Records {@code outcome} with the server's wait {@code retryAfterNanos}. */
    public static void outcome(CircuitBreaker breaker, Outcome outcome, long durationNanos, long retryAfterNanos) {
        breaker.record(breaker.rawState().stamp, outcome, durationNanos, retryAfterNanos);
    }

    /** Records a success after {@code durationNanos}. */
    public static void success(CircuitBreaker breaker, long durationNanos) {
        outcome(breaker, Outcome.SUCCESS, durationNanos);
    }

    /** Records a success that used {@code tokens}: over the breaker's token limit it is {@link Outcome#TOKEN_OVERUSE}. */
    public static void success(CircuitBreaker breaker, long durationNanos, long tokens) {
        breaker.onSuccess(breaker.rawState().stamp, durationNanos, tokens);
    }

    /** Records a call that threw {@code error}, classified by the breaker's classifier. */
    public static void error(CircuitBreaker breaker, Throwable error, long durationNanos) {
        outcome(breaker, breaker.config().classifier().classify(error), durationNanos,
                RetryAfter.ofError(error, breaker.clock().epochMillis()));
    }

    /** Gives back a permit of the current state. */
    public static void release(CircuitBreaker breaker) {
        breaker.rawState().release();
    }
}
