package io.agentfuse.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;

/**
 * The one place that decides which {@link Outcome} a LangChain4j failure is, so that every guard
 * of this module (models, streams, tools) retries, counts and falls back alike.
 *
 * <table>
 *   <caption>LangChain4j exceptions and their outcomes</caption>
 *   <tr><th>exception</th><th>outcome</th><th>so</th></tr>
 *   <tr><td>{@code RateLimitException} (429)</td><td>RATE_LIMITED</td><td>retried, falls back</td></tr>
 *   <tr><td>{@code InternalServerException} (5xx)</td><td>SERVER_ERROR; OVERLOADED for 529 or a 503 that says so</td><td>retried, falls back</td></tr>
 *   <tr><td>{@code TimeoutException} (408, read timeouts)</td><td>TIMEOUT</td><td>retried, falls back</td></tr>
 *   <tr><td>{@code UnresolvedModelServerException}, a refused or reset connection</td><td>CONNECTION_ERROR</td><td>retried, falls back</td></tr>
 *   <tr><td>{@code AuthenticationException} (401, 403)</td><td>ERROR</td><td>not retried (the key will not change), falls back, counts against the breaker</td></tr>
 *   <tr><td>{@code ModelNotFoundException} (404: a retired or misspelt model name, a wrong base URL)</td><td>ERROR</td>
 *       <td>the application's configuration, as a refused key: not retried, falls back, counts against the breaker
 *       (the gateway treats a provider's "no such model" alike)</td></tr>
 *   <tr><td>{@code InvalidRequestException}, {@code ContentFilteredException},
 *       {@code UnsupportedFeatureException}, {@code ToolArgumentsException}</td><td>CLIENT_ERROR</td>
 *       <td>never retried, no fallback, ignored by the breaker: the request is at fault, not the model</td></tr>
 *   <tr><td>{@code HttpException} of any other status</td><td>by status, as {@link OutcomeClassifier#ofStatus(int, String)}</td><td></td></tr>
 *   <tr><td>anything else</td><td>what the core classifier makes of the first cause it knows (e.g. a
 *       {@code ConnectException} inside), else ERROR</td><td></td></tr>
 * </table>
 *
 * <p>LangChain4j's own HTTP client drops an error answer's headers; give the models a
 * {@link HeaderKeepingHttpClientBuilder} and the guards honour {@code Retry-After} as well.
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * Guard guard = Guard.builder("model:gpt-4o-mini")
 *     .classifier(LangChain4jOutcomes.classifier())
 *     .tokens(LangChain4jOutcomes::tokens)
 *     .circuitBreaker(breaker)
 *     .build();
 * }</pre>
 */
public final class LangChain4jOutcomes {

    private static final OutcomeClassifier CLASSIFIER = build();

    private LangChain4jOutcomes() {
    }

    /** A classifier with the rules above ahead of the core's built-in ones. */
    public static OutcomeClassifier classifier() {
        return CLASSIFIER;
    }

    /** The outcome of a call that threw {@code error}. */
    public static Outcome classify(Throwable error) {
        return CLASSIFIER.classify(error);
    }

    /**
     * The tokens a {@link ChatResponse} used — every token read, from the prompt cache or not, and
     * written ({@link LangChain4jUsage#totalTokens()}) — for the breaker's {@code tokenOveruse} trigger;
     * 0 for anything else or when unknown.
     */
    public static long tokens(Object result) {
        if (!(result instanceof ChatResponse response)) {
            return 0L;
        }
        return LangChain4jUsage.of(response.tokenUsage()).totalTokens();
    }

    /**
     * The core classifier takes rules as "predicate → one outcome"; one rule per outcome kind, each
     * asking {@link #decide}, keeps the decision itself in one method. Only failures pay for it.
     */
    private static OutcomeClassifier build() {
        OutcomeClassifier.Builder builder = OutcomeClassifier.builder();
        for (Outcome kind : Outcome.values()) {
            builder.exceptionRule(error -> decide(error) == kind, kind);
        }
        return builder.build();
    }

    /** The outcome of a LangChain4j failure, or {@code null} to leave it to the built-in rules. */
    static Outcome decide(Throwable error) {
        Throwable subject = error instanceof RetryHint hint ? hint.original() : error;
        Outcome outcome = ofType(subject);
        if (outcome != null) {
            return outcome;
        }
        // A wrapper (LangChain4jException around an IOException, say): the first cause anyone knows.
        for (Throwable cause = subject.getCause(); cause != null; cause = cause.getCause()) {
            Outcome inner = ofType(cause);
            if (inner == null) {
                inner = OutcomeClassifier.defaults().classify(cause);
            }
            if (inner != Outcome.ERROR) {
                return inner;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    /** The outcome of {@code error} by its own LangChain4j type alone, or {@code null}. */
    private static Outcome ofType(Throwable error) {
        if (error instanceof RateLimitException) {
            return Outcome.RATE_LIMITED;
        }
        if (error instanceof InternalServerException) {
            HttpException http = httpCause(error);
            return http == null ? Outcome.SERVER_ERROR : OutcomeClassifier.ofStatus(http.statusCode(), http.getMessage());
        }
        if (error instanceof TimeoutException) {
            return Outcome.TIMEOUT;
        }
        if (error instanceof UnresolvedModelServerException) {
            return Outcome.CONNECTION_ERROR;
        }
        if (error instanceof AuthenticationException || error instanceof ModelNotFoundException) {
            return Outcome.ERROR;
        }
        if (error instanceof InvalidRequestException || error instanceof ContentFilteredException || error instanceof UnsupportedFeatureException
                || error instanceof ToolArgumentsException) {
            return Outcome.CLIENT_ERROR;
        }
        if (error instanceof HttpException http) {
            int status = http.statusCode();
            return status == 401 || status == 403 ? Outcome.ERROR : OutcomeClassifier.ofStatus(status, http.getMessage());
        }
        return null;
    }

    private static HttpException httpCause(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpException http) {
                return http;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
