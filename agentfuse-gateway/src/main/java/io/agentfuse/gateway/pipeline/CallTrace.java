package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.AttemptResult;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.gateway.tracing.RequestTrace;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one request's chain did so far, for the response headers: how many upstream attempts it
 * made over all steps ({@code x-agentfuse-attempts}), and which step was tried last (named in
 * {@code x-agentfuse-model} when an upstream 4xx is passed through); and the request's
 * {@link RequestTrace}, which gets a span per attempt ({@link RequestTrace#NONE} when not traced).
 *
 * <p>Thread-safe, though a request's attempts normally all run on its own event loop.
 */
final class CallTrace {

    private final AtomicInteger attempts = new AtomicInteger();
    private volatile String lastModel;
    private volatile boolean abandoned;
    private volatile RequestTrace span = RequestTrace.NONE;
    /** Attempts per step, counted only when traced (the span says which attempt of its step it is). */
    private Map<String, Integer> attemptsOfStep;

    /** Traces the request with {@code span} from now on. */
    void traced(RequestTrace span) {
        this.span = span;
    }

    /** The request's trace. */
    RequestTrace span() {
        return span;
    }

    /** An attempt of the step {@code model} begins (untraced). */
    void attemptStarted(String model) {
        lastModel = model;
        attempts.incrementAndGet();
    }

    /**
     * An attempt of {@code step} begins; returns the headers that carry its trace context upstream
     * (empty when not traced).
     */
    Map<String, String> attemptStarted(PlannedStep step) {
        attemptStarted(step.name());
        if (span == RequestTrace.NONE) {
            return Map.of();
        }
        int ofStep;
        synchronized (this) {
            if (attemptsOfStep == null) {
                attemptsOfStep = new java.util.HashMap<>(4);
            }
            ofStep = attemptsOfStep.merge(step.name(), 1, Integer::sum);
        }
        return span.attemptStarted(step.name(), step.provider().name(), step.model().upstreamModel(), ofStep);
    }

    /** The attempt of {@code step}, one of {@code steps}, ended as its guard classified it. */
    void attemptEnded(String step, AttemptResult attempt, List<PlannedStep> steps) {
        if (span == RequestTrace.NONE) {
            return;
        }
        String breakerState = null;
        for (PlannedStep planned : steps) {
            CircuitBreaker breaker = planned.name().equals(step) ? planned.guard().circuitBreaker() : null;
            if (breaker != null) {
                breakerState = breaker.state().name();
            }
        }
        span.attemptEnded(step, attempt.outcome(), breakerState);
    }

    int attempts() {
        return attempts.get();
    }

    /** The exchange gave up on the chain (caller gone, deadline): a cancelled attempt is not a timeout then. */
    void abandon() {
        abandoned = true;
    }

    boolean abandoned() {
        return abandoned;
    }

    /** The model of the latest attempt, or {@code null} before the first. */
    String lastModel() {
        return lastModel;
    }
}
