package io.agentfuse.gateway.tracing;

import io.agentfuse.core.Outcome;

import java.util.Map;

/**
 * The trace of one model request: its span, and a child span per upstream attempt. The pipeline
 * calls these hooks at the moments they name; {@link #NONE} (tracing off) does nothing.
 *
 * <p>Thread-safe: the hooks of one request may come from the threads that finished its attempts.
 */
public interface RequestTrace {

    /** A trace that records nothing. */
    RequestTrace NONE = new RequestTrace() {
    };

    /** The request asked for {@code model} (a configured model's name). */
    default void requestedModel(String model) {
    }

    /**
     * Attempt {@code attemptOfStep} (from 1) of step {@code step} begins, a call to {@code provider}
     * for {@code upstreamModel}. Returns the headers that carry its trace context upstream
     * ({@code traceparent}, and {@code tracestate} when there is one); empty when nothing is traced.
     */
    default Map<String, String> attemptStarted(String step, String provider, String upstreamModel, int attemptOfStep) {
        return Map.of();
    }

    /** The attempt of {@code step} under way ended as {@code outcome}, leaving its breaker in {@code breakerState}. */
    default void attemptEnded(String step, Outcome outcome, String breakerState) {
    }

    /** Step {@code model} answered, after {@code fallbacks} steps were passed over. */
    default void answered(String model, int fallbacks) {
    }

    /** The answer used {@code inputTokens} and {@code outputTokens}, as the provider reported. */
    default void usage(long inputTokens, long outputTokens) {
    }

    /** The request ended with HTTP {@code status} (499: the caller left); the trace is finished. */
    default void ended(int status) {
    }
}
