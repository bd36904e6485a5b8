package io.agentfuse.springai;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.OutcomeClassifier;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.bulkhead.BulkheadFullException;
import io.agentfuse.core.fallback.FallbackExhaustedException;
import io.agentfuse.springai.internal.HttpAnswer;
import io.agentfuse.springai.internal.OpenAiSdkAnswers;
import io.agentfuse.springai.internal.SpringAiRetryAnswers;
import io.agentfuse.springai.internal.SpringWebAnswers;

import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The one place where the exceptions of Spring AI's model clients become what agentfuse's
 * {@link OutcomeClassifier} decides with. A guarded call translates what its model threw, and the
 * guard's classifier (and so the breaker, retry and fallback chain) reads the translation:
 *
 * <table>
 *   <caption>Translations, by the first match in the exception's cause chain</caption>
 *   <tr><th>the client threw</th><th>becomes</th><th>outcome</th></tr>
 *   <tr><td>an HTTP answer 401 or 403</td><td>{@link ModelAuthException}</td><td>ERROR: not retried, falls back</td></tr>
 *   <tr><td>an HTTP answer 404 (a retired or misspelt model name, a wrong base URL)</td><td>{@link ModelNotServedException}</td>
 *       <td>ERROR: not retried, falls back</td></tr>
 *   <tr><td>any other HTTP answer: Spring's {@code RestClientResponseException} ({@code HttpClientErrorException},
 *       {@code HttpServerErrorException}), {@code WebClientResponseException}, the OpenAI SDK's
 *       {@code OpenAIServiceException}, Spring AI's {@code TransientAiException}/{@code NonTransientAiException}
 *       (status read from "{@code 429 - ...}"; else 500 and 400)</td>
 *       <td>{@link UpstreamHttpException} with status, body and headers</td>
 *       <td>by status: 429 RATE_LIMITED (honouring {@code Retry-After}), 5xx SERVER_ERROR, 529 OVERLOADED,
 *       other 4xx CLIENT_ERROR</td></tr>
 *   <tr><td>an {@code IOException} inside ({@code ResourceAccessException}, {@code WebClientRequestException},
 *       {@code OpenAIIoException}, ...)</td><td>{@link UpstreamIoException}</td>
 *       <td>CONNECTION_ERROR (refused, reset, DNS) or TIMEOUT (socket timeout)</td></tr>
 *   <tr><td>anything agentfuse already knows (its own exceptions, a timeout) or nothing of the above</td>
 *       <td>itself</td><td>as the classifier says; ERROR otherwise</td></tr>
 * </table>
 *
 * <p>Each client library is optional: its exceptions are looked for only when it is on the class
 * path. Stateless and thread-safe.
 *
 * <pre>{@code
 * ChatResponse response = guard.execute(() -> {
 *     try {
 *         return openAi.call(prompt);
 *     } catch (RuntimeException e) {
 *         throw ModelFailures.translate(e);
 *     }
 * });
 * }</pre>
 */
public final class ModelFailures {

    private static final boolean SPRING_WEB = present("org.springframework.web.client.RestClientResponseException");
    private static final boolean OPENAI_SDK = present("com.openai.errors.OpenAIServiceException");
    private static final boolean SPRING_AI_RETRY = present("org.springframework.ai.retry.TransientAiException");
    private static final int MAX_DEPTH = 16;

    private ModelFailures() {
    }

    /** What {@code error} becomes for agentfuse's classifier (see the table above); {@code error} itself if nothing applies. */
    public static RuntimeException translate(RuntimeException error) {
        if (error instanceof UpstreamFailure || error instanceof HttpStatusException || error instanceof CircuitOpenException
                || error instanceof BulkheadFullException || error instanceof FallbackExhaustedException
                || OutcomeClassifier.defaults().classify(error) != Outcome.ERROR) {
            return error;
        }
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_DEPTH && seen.add(current); depth++) {
            HttpAnswer answer = answerOf(current);
            if (answer != null) {
                return fromAnswer(answer, error);
            }
            if (current instanceof IOException io) {
                return new UpstreamIoException(error, io);
            }
            current = current.getCause();
        }
        return error;
    }

    /**
     * What the client threw: the original exception behind a translation, else {@code error}
     * itself; a failure that no fallback handles is rethrown to the caller in its original form.
     */
    public static RuntimeException original(RuntimeException error) {
        return error instanceof UpstreamFailure translated ? translated.original() : error;
    }

    private static HttpAnswer answerOf(Throwable error) {
        HttpAnswer answer = null;
        if (OPENAI_SDK) {
            answer = OpenAiSdkAnswers.read(error);
        }
        if (answer == null && SPRING_WEB) {
            answer = SpringWebAnswers.read(error);
        }
        if (answer == null && SPRING_AI_RETRY) {
            answer = SpringAiRetryAnswers.read(error);
        }
        return answer;
    }

    private static RuntimeException fromAnswer(HttpAnswer answer, RuntimeException original) {
        if (answer.status() == 401 || answer.status() == 403) {
            return new ModelAuthException(answer.status(), original);
        }
        if (answer.status() == 404) {
            return new ModelNotServedException(answer.body(), original);
        }
        return UpstreamHttpException.builder(answer.status(), original).body(answer.body())
                .retryHints(answer.headers().entrySet()).build();
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, ModelFailures.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
