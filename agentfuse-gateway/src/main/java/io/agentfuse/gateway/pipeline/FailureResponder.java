package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.vertx.core.http.HttpServerResponse;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The pipeline's answer when a request ends without a model answer, per the gateway's error
 * table:
 * <ul>
 *   <li>every step skipped by an open breaker → 503 {@code circuit_open} with {@code Retry-After}
 *       (the soonest reopening, whole seconds rounded up; none for an operator's forced open);</li>
 *   <li>every step that was called timed out → 504 {@code timeout};</li>
 *   <li>otherwise an exhausted chain → 502 {@code all_fallbacks_failed}, listing each step and why;</li>
 *   <li>an upstream 4xx → passed through unchanged: status, body, content type;</li>
 *   <li>a {@link GatewayException} from any stage → as it says.</li>
 * </ul>
 * Bodies are written by {@link GatewayErrors} in the caller's dialect. Stateless and thread-safe.
 */
final class FailureResponder {

    private FailureResponder() {
    }

    /** The gateway error for a chain that failed with {@code failure}, or {@code null} for a pass-through. */
    static GatewayException toGatewayError(Throwable failure) {
        Throwable cause = OutcomeClassifier.unwrap(failure);
        if (cause instanceof GatewayException gateway) {
            return gateway;
        }
        if (cause instanceof HttpStatusException
                && OutcomeClassifier.defaults().classify(cause) == Outcome.CLIENT_ERROR) {
            return null;
        }
        if (cause instanceof FallbackExhaustedException exhausted) {
            return exhausted(exhausted);
        }
        return new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "the model call failed: " + cause);
    }

    /** Answers {@code response} for {@code failure}, with the gateway headers. */
    static void respond(HttpServerResponse response, Dialect dialect, Throwable failure, ModelRequest request,
                        CallTrace trace) {
        Throwable cause = OutcomeClassifier.unwrap(failure);
        List<StepFailure> passed = cause instanceof FallbackExhaustedException exhausted ? exhausted.steps() : List.of();
        GatewayException error = toGatewayError(cause);
        ResponseHeaders.put(response, request, trace, error == null ? trace.lastModel() : null, passed);
        if (error == null) {
            passThrough(response, (HttpStatusException) cause);
        } else {
            GatewayErrors.respond(response, dialect, error);
        }
    }

    private static GatewayException exhausted(FallbackExhaustedException exhausted) {
        if (exhausted.allCircuitsOpen()) {
            long nanos = exhausted.soonestRetryAfterNanos();
            return new GatewayException(GatewayError.CIRCUIT_OPEN, "every model of the chain has an open circuit "
                    + "breaker: " + steps(exhausted), nanos < 0 ? null : Duration.ofNanos(nanos));
        }
        if (exhausted.allCalledTimedOut()) {
            return new GatewayException(GatewayError.TIMEOUT, "every model that was called timed out: " + steps(exhausted));
        }
        return new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "all fallbacks failed: " + steps(exhausted));
    }

    private static String steps(FallbackExhaustedException exhausted) {
        return exhausted.steps().stream().map(StepFailure::toString).collect(Collectors.joining("; "));
    }

    private static void passThrough(HttpServerResponse response, HttpStatusException answer) {
        String contentType = answer instanceof UpstreamStatusException upstream
                ? upstream.contentType().orElse("application/json") : "application/json";
        response.setStatusCode(answer.status()).putHeader("content-type", contentType)
                .end(answer.body().orElse(""));
    }
}
