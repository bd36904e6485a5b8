package io.agentfuse.gateway.dialect;

import io.agentfuse.core.MalformedAnswer;

import java.util.List;
import java.util.Map;

/**
 * A provider answered 2xx with something that is not a well-formed answer of its dialect: an
 * empty body, truncated or non-JSON text, the other dialect's JSON, or a field of the wrong type.
 * Such an answer is never relayed: it is a failed attempt, which
 * {@link io.agentfuse.core.OutcomeClassifier} classifies as {@code ERROR}: counted by the breaker,
 * fallen back from, and, being a {@link MalformedAnswer}, retried wherever a 5xx is.
 *
 * <p>The message says what was wrong in words, never with Java type names. Immutable; no stack
 * trace (it describes the provider's output, not a fault here).
 *
 * <pre>{@code
 * throw new MalformedAnswerException("the answer has no \"choices\" array");
 * }</pre>
 */
public final class MalformedAnswerException extends RuntimeException implements MalformedAnswer, AnsweredFailure {

    private final List<Map.Entry<String, String>> answerHeaders;

    /** @param problem what is wrong with the answer */
    public MalformedAnswerException(String problem) {
        this(problem, List.of());
    }

    /**
     * @param problem       what is wrong with the answer
     * @param answerHeaders the answer's headers, cleared of secrets (its request id is passed on)
     */
    public MalformedAnswerException(String problem, List<Map.Entry<String, String>> answerHeaders) {
        super(problem, null, false, false);
        this.answerHeaders = List.copyOf(answerHeaders);
    }

    @Override
    public List<Map.Entry<String, String>> answerHeaders() {
        return answerHeaders;
    }
}
