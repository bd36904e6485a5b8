package io.agentfuse.gateway.dialect;

import io.agentfuse.core.MalformedAnswer;

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
public final class MalformedAnswerException extends RuntimeException implements MalformedAnswer {

    /** @param problem what is wrong with the answer */
    public MalformedAnswerException(String problem) {
        super(problem, null, false, false);
    }
}
