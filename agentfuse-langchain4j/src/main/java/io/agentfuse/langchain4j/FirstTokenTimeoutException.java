package io.agentfuse.langchain4j;

import io.agentfuse.core.timeout.CallTimeoutException;

import java.time.Duration;

/**
 * A stream produced nothing (no text, thinking or tool call) within its first-token timeout. A
 * {@link CallTimeoutException}, so it is a TIMEOUT: retried and fallen back like any other, which
 * is safe because the caller has seen nothing yet.
 */
public final class FirstTokenTimeoutException extends CallTimeoutException {

    /** The stream's first-token timeout, {@code timeout}, ran out. */
    public FirstTokenTimeoutException(Duration timeout) {
        super(timeout);
    }

    @Override
    public String getMessage() {
        return "no first token within " + timeout();
    }
}
