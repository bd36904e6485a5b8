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
        super("call did not finish within " + timeout.toMillis() + " ms", null, false, false);
        this.timeout = timeout;
    }

    /** The limit that the call exceeded. */
    public Duration timeout() {
        return timeout;
    }
}
