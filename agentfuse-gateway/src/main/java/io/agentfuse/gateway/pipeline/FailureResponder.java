package io.agentfuse.gateway.pipeline;

import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.core.timeout.DeadlineExceededException;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.fallback.StepFailure;
import io.agentfuse.gateway.dialect.AnsweredFailure;
import io.agentfuse.gateway.dialect.Dialect;
import io.agentfuse.gateway.http.ClientRetryRules;
import io.agentfuse.gateway.http.GatewayError;
import io.agentfuse.gateway.http.GatewayErrors;
import io.agentfuse.gateway.http.GatewayException;
import io.agentfuse.gateway.upstream.TransportText;
import io.agentfuse.gateway.upstream.UpstreamAuthException;
import io.agentfuse.gateway.upstream.UpstreamModelRefusedException;
import io.agentfuse.gateway.upstream.UpstreamStatusException;
import io.vertx.core.http.HttpServerResponse;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The pipeline's answer when a request ends without a model answer, per the gateway's error
 * table:
 * <ul>
 *   <li>every step skipped because the request cannot be translated to its dialect → 400
 *       {@code invalid_request}, naming the fields;</li>
 *   <li>no step called and one skipped by a full bulkhead → 429 {@code overloaded}, {@code Retry-After: 1};</li>
 *   <li>every step skipped by an open breaker → 503 {@code circuit_open} with {@code Retry-After}
 *       (the soonest reopening, whole seconds rounded up; when no breaker of the chain reopens by
 *       itself, forced open or waiting for the user, the shortest of their {@code resetTimeout}s, and
 *       {@code x-should-retry: false}: {@link GatewayError#CIRCUIT_HELD_OPEN}); a chain with an
 *       untranslatable step is never {@code circuit_open}: waiting does not make it translatable, so
 *       it ends as {@code all_fallbacks_failed}, naming each step;</li>
 *   <li>the request's deadline ended the chain and no step called answered in time (none was
 *       called, or the last one called timed out) → 504 {@code timeout}; a deadline reached after a
 *       step failed otherwise ends with that step's failure, as below;</li>
 *   <li>every step that was called timed out → 504 {@code timeout};</li>
 *   <li>the last step that was called refused the gateway's key → 502 {@code upstream_auth_failed};</li>
 *   <li>otherwise an exhausted chain → 502 {@code all_fallbacks_failed}, listing each step and why;</li>
 *   <li>the gateway's own JVM failed during the call (out of memory, a stack overflow) → 500
 *       {@code internal_error}: no step was blamed, retried or fallen back from
 *       ({@link io.agentfuse.core.OutcomeClassifier});</li>
 *   <li>an upstream 4xx → passed through unchanged: status, body, content type; so is the last refusal
 *       of a model its provider does not serve when every step called was refused so (a retired model
 *       with a fallback that answers is fallen back from: {@link UpstreamModelRefusedException});</li>
 *   <li>a {@link GatewayException} from any stage → as it says.</li>
 * </ul>
 * Bodies are written by {@link GatewayErrors} in the caller's dialect; an error of the gateway's own
 * carries the request id of the provider's answer to the last attempt, if it got one
 * ({@link ProviderHeaders#passRequestId}). Stateless and thread-safe.
 */
final class FailureResponder {

    /** When to come back after every model of the chain was busy: their calls are short. */
    private static final Duration BUSY_RETRY_AFTER = Duration.ofSeconds(1);

    /** What a caller is told about a fault of the gateway itself (the details are no business of theirs). */
    static final String BUG_MESSAGE = "the gateway failed unexpectedly while handling the request";

    private FailureResponder() {
    }

    /**
     * The gateway error for a fault of the gateway itself ({@code bug}), outside the model call: a
     * heap that ran out (translating a large answer, say) is short-lived, 429 {@code overloaded} as
     * for the call; anything else 500 {@code internal_error}.
     */
    static GatewayException ownFault(Throwable bug) {
        return bug instanceof OutOfMemoryError full ? GatewayException.outOfMemory(full)
                : new GatewayException(GatewayError.INTERNAL_ERROR, BUG_MESSAGE);
    }

    /** The gateway error for a chain that failed with {@code failure}, or {@code null} for a pass-through. */
    static GatewayException toGatewayError(Throwable failure) {
        Throwable cause = OutcomeClassifier.unwrap(failure);
        if (cause instanceof GatewayException gateway) {
            return gateway;
        }
        if (passedOn(cause) != null) {
            return null;
        }
        if (cause instanceof FallbackExhaustedException exhausted) {
            return exhausted(exhausted);
        }
        if (cause instanceof DeadlineExceededException late) {
            return new GatewayException(GatewayError.TIMEOUT, "the request's deadline passed before any model answered: "
                    + late.getMessage());
        }
        if (cause instanceof OutOfMemoryError full) {
            return GatewayException.outOfMemory(full);
        }
        if (cause instanceof VirtualMachineError fault) {
            return new GatewayException(GatewayError.INTERNAL_ERROR, "the gateway failed while serving the request ("
                    + TransportText.of(fault) + "); the model is not blamed for it");
        }
        return new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "the model call failed: " + TransportText.of(cause));
    }

    /**
     * The provider's refusal a chain that failed with {@code failure} is answered with, as it came: an
     * upstream 4xx ({@code CLIENT_ERROR}), or the last refusal of a model when every step that was called
     * was refused its model ({@link UpstreamModelRefusedException}: none served the name); {@code null}
     * when the gateway answers with an error of its own.
     */
    static HttpStatusException passedOn(Throwable failure) {
        Throwable cause = OutcomeClassifier.unwrap(failure);
        if (cause instanceof HttpStatusException refused && OutcomeClassifier.defaults().classify(cause) == Outcome.CLIENT_ERROR) {
            return refused;
        }
        if (cause instanceof UpstreamModelRefusedException refused) {
            return refused.refusal();
        }
        if (!(cause instanceof FallbackExhaustedException exhausted)) {
            return null;
        }
        List<Throwable> called = exhausted.steps().stream().filter(step -> !step.skipped())
                .map(step -> OutcomeClassifier.unwrap(step.cause())).toList();
        return !called.isEmpty() && called.stream().allMatch(UpstreamModelRefusedException.class::isInstance)
                ? ((UpstreamModelRefusedException) called.get(called.size() - 1)).refusal() : null;
    }

    /** Answers {@code response} for {@code failure}, with the gateway headers. */
    static void respond(HttpServerResponse response, Dialect dialect, Throwable failure, ModelRequest request,
                        CallTrace trace) {
        respond(response, dialect, failure, request, trace, ClientRetryRules.SHOULD_RETRY_HEADER);
    }

    /** Answers {@code response} for {@code failure}, in the words a client of {@code rules} obeys. */
    static void respond(HttpServerResponse response, Dialect dialect, Throwable failure, ModelRequest request,
                        CallTrace trace, ClientRetryRules rules) {
        Throwable cause = OutcomeClassifier.unwrap(failure);
        List<StepFailure> passed = cause instanceof FallbackExhaustedException exhausted ? exhausted.steps() : List.of();
        GatewayException error = toGatewayError(cause);
        ResponseHeaders.put(response, request, trace, error == null ? trace.lastModel() : null, passed);
        if (error == null) {
            passThrough(response, dialect, passedOn(cause));
        } else {
            if (lastAttempt(cause, passed) instanceof AnsweredFailure answered) {
                ProviderHeaders.passRequestId(answered.answerHeaders(), response.headers());
            }
            GatewayErrors.respond(response, dialect, error, rules);
        }
    }

    /**
     * How the last attempt called failed ({@code cause} itself outside a chain); {@code null} when no
     * step was called. A step's failure is its last attempt's: its retries end with it.
     */
    private static Throwable lastAttempt(Throwable cause, List<StepFailure> steps) {
        if (!(cause instanceof FallbackExhaustedException)) {
            return cause;
        }
        Throwable last = steps.stream().filter(step -> !step.skipped()).reduce((a, b) -> b).map(StepFailure::cause).orElse(null);
        return last == null ? null : OutcomeClassifier.unwrap(last);
    }

    private static GatewayException exhausted(FallbackExhaustedException exhausted) {
        List<StepFailure> steps = exhausted.steps();
        if (!steps.isEmpty() && steps.stream().allMatch(FailureResponder::untranslatable)) {
            return new GatewayException(GatewayError.UNTRANSLATABLE, "no model of the chain can take this request: "
                    + steps(exhausted));
        }
        boolean noneCalled = steps.stream().allMatch(StepFailure::skipped);
        if (noneCalled && steps.stream().anyMatch(step -> step.kind() == StepFailure.Kind.BULKHEAD_FULL)) {
            return new GatewayException(GatewayError.OVERLOADED, "every model of the chain is busy: "
                    + steps(exhausted), BUSY_RETRY_AFTER);
        }
        if (noneCalled && steps.stream().allMatch(StepFailure::skippedByOpenCircuit)) {
            String message = "every model of the chain has an open circuit breaker: " + steps(exhausted);
            long nanos = exhausted.soonestRetryAfterNanos();
            if (nanos >= 0) {
                return GatewayException.circuitOpen(message, Duration.ofNanos(nanos));
            }
            // No breaker of the chain reopens by itself: an operator or the user holds them open.
            long held = steps.stream().map(StepFailure::cause).filter(CircuitOpenException.class::isInstance)
                    .mapToLong(open -> ((CircuitOpenException) open).rejection().suggestedWaitNanos())
                    .min().orElse(0);
            return new GatewayException(GatewayError.CIRCUIT_HELD_OPEN, message, Duration.ofNanos(held));
        }
        StepFailure lastCalled = steps.stream().filter(step -> !step.skipped()).reduce((a, b) -> b).orElse(null);
        if (exhausted.deadlineReached() && (lastCalled == null || lastCalled.outcome() == Outcome.TIMEOUT)) {
            // Nothing answered in time: what was left was not started, or was cut at the deadline.
            return new GatewayException(GatewayError.TIMEOUT, "the request's deadline passed before any model answered"
                    + " (models.<m>.deadline, x-agentfuse-deadline): " + steps(exhausted));
        }
        if (noneCalled) {
            // Open breakers beside untranslatable steps: a wait would not make the request translatable.
            return new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "no model of the chain can take this request now: "
                    + steps(exhausted));
        }
        if (lastCalled != null && lastCalled.cause() instanceof UpstreamAuthException auth) {
            return new GatewayException(GatewayError.UPSTREAM_AUTH_FAILED, auth.getMessage() + "; "
                    + steps(exhausted));
        }
        if (exhausted.allCalledTimedOut()) {
            return new GatewayException(GatewayError.TIMEOUT, "every model that was called timed out: " + steps(exhausted));
        }
        return new GatewayException(GatewayError.ALL_FALLBACKS_FAILED, "all fallbacks failed: " + steps(exhausted));
    }

    /** Whether {@code step} was skipped because the request cannot be written in its provider's dialect. */
    private static boolean untranslatable(StepFailure step) {
        return step.kind() == StepFailure.Kind.UNSERVABLE; // the gateway skips a step only when it cannot translate
    }

    private static String steps(FallbackExhaustedException exhausted) {
        return exhausted.steps().stream().map(FailureResponder::describe).collect(Collectors.joining("; "));
    }

    /** One step as the caller reads it: a called step's failure in {@link TransportText}'s words. */
    private static String describe(StepFailure step) {
        if (step.skipped() || step.cause() == null) {
            return step.toString();
        }
        return step.step() + " failed (" + step.outcome() + ": " + TransportText.of(step.cause()) + ")";
    }

    /**
     * The provider's answer: status, body and those of its headers that reach a caller
     * ({@link ProviderHeaders}: its request id, rate-limit and retry headers; not its cookies, nor
     * the gateway's own). The body as it came, unless the provider answers errors in another family
     * than the caller's dialect ({@link ProviderRefusal}).
     */
    private static void passThrough(HttpServerResponse response, Dialect dialect, HttpStatusException answer) {
        String contentType = "application/json";
        String body = answer.body().orElse("");
        if (answer instanceof UpstreamStatusException upstream) {
            if (ProviderRefusal.readAsItCame(dialect, upstream)) {
                contentType = upstream.contentType().orElse(contentType);
            } else {
                body = ProviderRefusal.rewritten(dialect, upstream).encode();
            }
            ProviderHeaders.pass(upstream.answerHeaders(), response.headers());
        }
        response.setStatusCode(answer.status()).putHeader("content-type", contentType).end(body);
    }
}
