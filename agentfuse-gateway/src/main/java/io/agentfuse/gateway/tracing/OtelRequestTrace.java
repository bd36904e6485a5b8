package io.agentfuse.gateway.tracing;

import io.agentfuse.core.Outcome;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

import java.util.HashMap;
import java.util.Map;

/**
 * A model request's span (kind server, {@code chat <model>}) and its attempts' spans (kind client,
 * {@code chat <upstream model>}), with the GenAI conventions' attributes and the gateway's own
 * ({@code agentfuse.step}, {@code agentfuse.attempt}, {@code agentfuse.outcome},
 * {@code agentfuse.breaker.state}, {@code agentfuse.fallbacks}). Thread-safe: a lock guards the
 * attempts under way (one per step at most).
 */
final class OtelRequestTrace implements RequestTrace {

    private static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    private static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    private static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    private static final AttributeKey<String> STEP = AttributeKey.stringKey("agentfuse.step");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("agentfuse.attempt");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("agentfuse.outcome");
    private static final AttributeKey<String> BREAKER_STATE = AttributeKey.stringKey("agentfuse.breaker.state");
    private static final AttributeKey<Long> FALLBACKS = AttributeKey.longKey("agentfuse.fallbacks");

    private final Tracer tracer;
    private final Span span;
    private final Map<String, Span> attempts = new HashMap<>(4);

    OtelRequestTrace(Tracer tracer, Span span) {
        this.tracer = tracer;
        this.span = span;
    }

    @Override
    public void requestedModel(String model) {
        span.updateName(OtelTracing.CHAT + " " + model);
        span.setAttribute(OtelTracing.REQUEST_MODEL, model);
    }

    @Override
    public Map<String, String> attemptStarted(String step, String provider, String upstreamModel, int attemptOfStep) {
        Span attempt = tracer.spanBuilder(OtelTracing.CHAT + " " + upstreamModel).setParent(Context.root().with(span))
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(OtelTracing.OPERATION, OtelTracing.CHAT)
                .setAttribute(OtelTracing.PROVIDER, provider)
                .setAttribute(OtelTracing.REQUEST_MODEL, upstreamModel)
                .setAttribute(STEP, step)
                .setAttribute(ATTEMPT, (long) attemptOfStep)
                .startSpan();
        Span earlier;
        synchronized (attempts) {
            earlier = attempts.put(step, attempt);
        }
        if (earlier != null) {
            earlier.setAttribute(OUTCOME, "unknown").end(); // its end was never reported
        }
        return OtelTracing.propagation(attempt);
    }

    @Override
    public void attemptEnded(String step, Outcome outcome, String breakerState) {
        Span attempt;
        synchronized (attempts) {
            attempt = attempts.remove(step);
        }
        if (attempt == null) {
            return;
        }
        attempt.setAttribute(OUTCOME, outcome.name());
        if (breakerState != null) {
            attempt.setAttribute(BREAKER_STATE, breakerState);
        }
        if (outcome != Outcome.SUCCESS) {
            attempt.setAttribute(OtelTracing.ERROR_TYPE, outcome.name());
            attempt.setStatus(StatusCode.ERROR);
        }
        attempt.end();
    }

    @Override
    public void answered(String model, int fallbacks) {
        span.setAttribute(RESPONSE_MODEL, model);
        span.setAttribute(FALLBACKS, (long) fallbacks);
    }

    @Override
    public void usage(long inputTokens, long outputTokens) {
        span.setAttribute(INPUT_TOKENS, inputTokens);
        span.setAttribute(OUTPUT_TOKENS, outputTokens);
    }

    @Override
    public void ended(int status) {
        Map<String, Span> unfinished;
        synchronized (attempts) {
            unfinished = new HashMap<>(attempts);
            attempts.clear();
        }
        // An attempt still open was cancelled: the caller left, a deadline passed, or the gateway stopped.
        unfinished.values().forEach(attempt -> attempt.setAttribute(OUTCOME, "cancelled").end());
        span.setAttribute(OtelTracing.STATUS, (long) status);
        span.setAttribute(OUTCOME, status < 400 ? "answered" : status == 499 ? "caller_left" : "failed");
        if (status >= 500) {
            span.setAttribute(OtelTracing.ERROR_TYPE, Integer.toString(status));
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }
}
