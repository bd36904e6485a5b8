package io.agentfuse.gateway.dialect;

/**
 * A client request that cannot be accepted: not JSON, a required field missing, a field of the
 * wrong type or value, or a field the dialect does not have. The gateway answers it with 400
 * {@code invalid_request}; the message names the field ({@link #param()}) and what was wrong.
 *
 * <p>Immutable; no stack trace (it describes the caller's input, not a fault here).
 *
 * <pre>{@code
 * try {
 *     ChatRequest request = Dialects.OPENAI.parseRequest(body);
 * } catch (InvalidRequestException e) {
 *     errors.respond(response, Dialects.OPENAI, GatewayError.INVALID_REQUEST, e.getMessage());
 * }
 * }</pre>
 */
public final class InvalidRequestException extends RuntimeException {

    private final String param;

    /**
     * @param param   the path of the offending field ({@code messages[2].content}), or {@code null}
     * @param message what is wrong, naming the field and the bad value
     */
    public InvalidRequestException(String param, String message) {
        super(message, null, false, false);
        this.param = param;
    }

    /** The path of the offending field, or {@code null} when the whole body is at fault. */
    public String param() {
        return param;
    }
}
