package io.agentfuse.core.timeout;


import java.time.Duration;

/**
 * A call that did not finish within its timeout; classified as {@link io.agentfuse.core.Outcome#TIMEOUT}.
 *
 * <p>Immutable; no stack trace is filled in, since the timer, not the caller, detects it.
 */
public class CallTimeoutException extends RuntimeException {

    private final Duration timeout;

    /** @param timeout the limit that the call exceeded */
    public CallTimeoutException(Duration timeout) {
        this("call did not finish within " + timeout.toMillis() + " ms", timeout);
    }

    /** A timeout of {@code timeout} explained by {@code message}. */
    protected CallTimeoutException(String message, Duration timeout) {
        super(message, null, false, false);
        this.timeout = timeout;
    }

    /** The limit that the call exceeded. */
    public Duration timeout() {
        return timeout;
    }
}
