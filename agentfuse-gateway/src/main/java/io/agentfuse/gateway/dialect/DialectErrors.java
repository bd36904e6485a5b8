package io.agentfuse.gateway.dialect;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.gateway.sse.SseEvent;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * How a {@link Dialect} writes and classifies errors: what a provider's error answer or in-stream
 * error means for the breakers and retries, which family of error bodies its providers answer with,
 * and the bodies and events in which the gateway tells its callers of a failure — its own, a
 * provider's refusal passed on, a provider's in-stream error — in the dialect's words.
 *
 * <p>Part of every dialect; stateless and thread-safe like it.
 */
public interface DialectErrors {

    /** The dialect's short name ({@code openai}, {@code anthropic}, ...); see {@link Dialect#name()}. */
    String name();


    /** The outcome of an error a provider of this dialect reported with {@code type} inside a stream. */
    Outcome streamErrorOutcome(String type);

    /**
     * The type this dialect's callers read for an error of {@code outcome} that a provider of another
     * family of errors ({@link #errorFamily()}) reported inside a stream as {@code providerType}:
     * Anthropic's {@code overloaded_error} for Google's {@code UNAVAILABLE}, say. By default the
     * provider's type as it came.
     */
    default String streamErrorType(Outcome outcome, String providerType) {
        return providerType;
    }

    /**
     * The outcome of a provider's non-2xx answer, for the breakers and retries: by its status by
     * default ({@link OutcomeClassifier#ofStatus}); a provider that says more in its body or headers
     * (Bedrock's {@code x-amzn-ErrorType}, Google's {@code status}) says it here.
     */
    default Outcome errorOutcome(int status, MultiMap headers, String body) {
        return OutcomeClassifier.ofStatus(status, body);
    }

    /**
     * Whether a non-2xx answer refuses the gateway's own credentials (not the caller's request):
     * 401 and 403 by default; Gemini's invalid key is a 400.
     */
    default boolean refusesCredentials(int status, String body) {
        return status == 401 || status == 403;
    }

    /**
     * Whether a non-2xx answer says the provider serves no model of the name the gateway sent — a
     * retired model, a misspelt {@code upstreamModel}, an Azure deployment that does not exist: the
     * gateway's configuration, not the caller's request, so the step is fallen back from like a refused
     * key instead of the refusal being passed on. By default OpenAI's 404 with {@code error.code}
     * {@code model_not_found} (Chat Completions, Responses and the servers that copy them).
     */
    default boolean refusesModel(int status, MultiMap headers, String body) {
        return status == 404 && "model_not_found".equals(ProviderErrorFields.of(body).code());
    }

    /**
     * The family of error bodies this dialect's providers answer with: a provider's refusal of a
     * request reaches a caller of the same family as it came, and one of another family re-written
     * in its own ({@link #refusalBody}). The dialect's name by default.
     */
    default String errorFamily() {
        return name();
    }

    /**
     * The family of {@code body}, an error this dialect's provider answered with: {@link #errorFamily()}
     * unless its providers answer in more than one (Vertex AI's front door speaks Google's errors
     * whatever model it hosts).
     */
    default String errorFamily(String body) {
        return errorFamily();
    }

    /**
     * A provider's refusal of the caller's request (a 4xx that is passed on, neither retried nor
     * fallen back from) in this dialect's words, for a caller whose provider speaks another family of
     * errors: the type this dialect gives {@code status} and the provider's own {@code message}.
     */
    default JsonObject refusalBody(int status, String message) {
        String type = switch (status) {
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            default -> "invalid_request_error";
        };
        return errorBody(type, message);
    }

    /**
     * Adds to an error {@code body} of this dialect when a retry may succeed, where the dialect says
     * it in the body (Google's {@code RetryInfo}, which Gemini CLI waits out, or stops at beyond five
     * minutes); nothing by default: the {@code Retry-After} header says it.
     */
    default void addRetryDelay(JsonObject body, Duration wait) {
    }

    /** An error body of this dialect with {@code error.type} {@code type}. */
    JsonObject errorBody(String type, String message);

    /**
     * An error body of this dialect with {@code error.type} {@code type} and, where the dialect has
     * one, {@code error.code} {@code code}; by default the body of {@link #errorBody(String, String)}.
     */
    default JsonObject errorBody(String type, String message, String code) {
        return errorBody(type, message);
    }

    /** The same error as an SSE event that ends a stream. */
    SseEvent errorEvent(String type, String message);
}
