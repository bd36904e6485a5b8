package io.agentfuse.langchain4j;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.RetryAfter;

/**
 * A LangChain4j failure that carries a server's hints, in the form the guards read them: an
 * {@link HttpStatusException} with the answer's wait ({@code Retry-After}, {@code retry-after-ms},
 * the rate-limit headers) and its {@code x-should-retry} verdict, holding the original LangChain4j
 * exception. It lives only inside a guarded call: the decorators attach it to what a model threw
 * ({@link #attach}) so that the retry and the breaker honour them, and take it off
 * again ({@link #original}) before anything reaches the caller, who sees LangChain4j's exception.
 * {@link LangChain4jOutcomes} classifies it as its original.
 */
final class RetryHint extends HttpStatusException {

    private final transient RuntimeException original;

    private RetryHint(HttpAnswerException answer, RuntimeException original) {
        super(builder(answer));
        this.original = original;
    }

    private static Builder builder(HttpAnswerException answer) {
        return HttpStatusException.builder(answer.statusCode()).body(answer.getMessage())
                .retryHints(answer.headers().entrySet());
    }

    /**
     * {@code error} with its answer's hints attached, when it came from a
     * {@link HeaderKeepingHttpClientBuilder} client and the answer gave a wait or an
     * {@code x-should-retry} verdict; else {@code error}.
     */
    static Throwable attach(Throwable error) {
        if (!(error instanceof RuntimeException runtime) || error instanceof RetryHint) {
            return error;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpAnswerException answer) {
                RetryHint hint = new RetryHint(answer, runtime);
                boolean hinted = hint.shouldRetry().isPresent()
                        || RetryAfter.ofError(hint, System.currentTimeMillis()) != RetryAfter.NONE;
                return hinted ? hint : error;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return error;
    }

    /** What the model threw, without the hint. */
    static Throwable original(Throwable error) {
        return error instanceof RetryHint hint ? hint.original : error;
    }

    /** The LangChain4j exception this hint was attached to. */
    RuntimeException original() {
        return original;
    }
}
