package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;

/**
 * The breaker permit a streamed answer holds from the moment its guard returns it until the
 * stream ends: exactly one final outcome (or a release) is recorded against it, so a stream that
 * breaks after 40 chunks counts as one failure, not as a success followed by a failure.
 * Confined to the request's context, like the {@link StreamRelay} that uses it.
 */
final class StreamPermit {

    private CircuitBreaker breaker;
    private long permit;

    /** Takes {@code permit} of {@code breaker}; see {@link io.agentfuse.core.LongCall}. */
    void hold(CircuitBreaker breaker, long permit) {
        this.breaker = breaker;
        this.permit = permit;
    }

    /** Records the stream's final {@code outcome}; later calls do nothing. */
    void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
        CircuitBreaker held = take();
        if (held != null) {
            held.onOutcome(permit, outcome, durationNanos, retryAfterNanos);
        }
    }

    /** Records a stream that ended cleanly after using {@code tokens} (over the limit: TOKEN_OVERUSE). */
    void finished(long durationNanos, long tokens) {
        CircuitBreaker held = take();
        if (held != null) {
            held.onSuccess(permit, durationNanos, tokens);
        }
    }

    /** Gives the permit back: the stream ended for a reason that is not the provider's (the caller left). */
    void release() {
        CircuitBreaker held = take();
        if (held != null) {
            held.release(permit);
        }
    }

    /** Records a failure with no server hint. */
    void failed(Outcome outcome, long durationNanos) {
        record(outcome, durationNanos, RetryAfter.NONE);
    }

    private CircuitBreaker take() {
        CircuitBreaker held = breaker;
        breaker = null;
        return held;
    }
}
