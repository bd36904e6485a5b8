package io.agentfuse.core.breaker;

/**
 * Thrown instead of making a call while the breaker rejects calls.
 *
 * <p>Cheap by design: no stack trace is captured (the cause is the breaker's state, not the
 * caller's code path), suppression is off, and one instance is shared by every rejection of an
 * open period, so throwing it allocates nothing. Do not mutate it.
 */
public final class CircuitOpenException extends RuntimeException {

    private final transient Rejection rejection;

    CircuitOpenException(Rejection rejection) {
        super(rejection.message(), null, false, false);
        this.rejection = rejection;
    }

    /** The rejection, with the breaker's name, reason and retry time. */
    public Rejection rejection() {
        return rejection;
    }
}
