package io.agentfuse.springai.internal;

import org.springframework.ai.retry.NonTransientAiException;
import org.springframework.ai.retry.TransientAiException;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the answer out of Spring AI's own {@link TransientAiException} and
 * {@link NonTransientAiException}, which the {@code RestClient}-based model clients throw with a
 * message {@code "<status> - <body>"} and no headers. Without a status in the message a transient
 * error stands for a 500 and a non-transient one for a 400. Stateless.
 */
public final class SpringAiRetryAnswers {

    private static final Pattern STATUS = Pattern.compile("^\\s*(?:HTTP\\s+)?([1-9]\\d{2})(?:\\s*-\\s*|\\s+|$)(.*)$", Pattern.DOTALL);

    private SpringAiRetryAnswers() {
    }

    /** The answer {@code error} stands for, or {@code null} if it is neither of Spring AI's retry exceptions. */
    public static HttpAnswer read(Throwable error) {
        boolean transientError = error instanceof TransientAiException;
        if (!transientError && !(error instanceof NonTransientAiException)) {
            return null;
        }
        String message = error.getMessage() == null ? "" : error.getMessage();
        Matcher matcher = STATUS.matcher(message);
        if (matcher.matches()) {
            return new HttpAnswer(Integer.parseInt(matcher.group(1)), matcher.group(2), Map.of());
        }
        return new HttpAnswer(transientError ? 500 : 400, message, Map.of());
    }
}
