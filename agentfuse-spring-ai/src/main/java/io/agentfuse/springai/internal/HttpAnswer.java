package io.agentfuse.springai.internal;

import java.util.Map;

/**
 * The parts of a failed HTTP answer that agentfuse decides with, read from a client's exception.
 *
 * @param status  the HTTP status
 * @param body    the response body, or {@code null}
 * @param headers the answer's headers (first value of each), names as the client gave them
 */
public record HttpAnswer(int status, String body, Map<String, String> headers) {

    /** Copies {@code headers}. */
    public HttpAnswer {
        headers = Map.copyOf(headers);
    }
}
