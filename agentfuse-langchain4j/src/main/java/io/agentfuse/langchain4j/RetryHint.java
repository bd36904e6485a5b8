package io.agentfuse.langchain4j;

import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.RetryAfter;

/**
 * A LangChain4j failure that carries a server's wait, in the form the guards read it: an
 * {@link HttpStatusException} with the answer's headers, holding the original LangChain4j
 * exception. It lives only inside a guarded call: the decorators attach it to what a model threw
 * ({@link #attach}) so that the retry and the breaker honour {@code Retry-After}, and take it off
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
        Builder builder = HttpStatusException.builder(answer.statusCode()).body(answer.getMessage());
        answer.headers().forEach(builder::header);
        return builder;
    }

    /**
     * {@code error} with the wait its answer asked for attached, when it came from a
     * {@link HeaderKeepingHttpClientBuilder} client and the answer named one; else {@code error}.
     */
    static Throwable attach(Throwable error) {
        if (!(error instanceof RuntimeException runtime) || error instanceof RetryHint) {
            return error;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpAnswerException answer) {
                RetryHint hint = new RetryHint(answer, runtime);
                return RetryAfter.ofError(hint, System.currentTimeMillis()) == RetryAfter.NONE ? error : hint;
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
