package io.agentfuse.gateway.dialect.responses;

/**
 * An upstream 200 whose body is not a well-formed answer of its dialect: empty, truncated, not
 * JSON, or JSON of the wrong shape or types. DESIGN §7 makes such an answer a failed attempt
 * (retried, fallen back, counted by the breaker), never relayed. The message says what was
 * wrong in the upstream's own terms ({@code output[0].content[1].text must be a string, but was 3}),
 * never in Java's.
 *
 * <p>Immutable; no stack trace (it describes the peer's output, not a fault here).
 *
 * <pre>{@code
 * try {
 *     ChatResponse answer = ResponsesResponseCodec.read(upstreamBodyText);
 * } catch (MalformedAnswerException e) {
 *     attempt.fail("invalid upstream answer: " + e.getMessage());
 * }
 * }</pre>
 */
public final class MalformedAnswerException extends RuntimeException {

    /** @param message what was wrong with the answer, naming the field and the bad value */
    public MalformedAnswerException(String message) {
        super(message, null, false, false);
    }
}
