package io.agentfuse.core.bulkhead;


/**
 * Thrown (or completed with) when a {@link Bulkhead} has no free place within its wait.
 *
 * <p>Cheap: no stack trace, no suppression, one instance per bulkhead. It is a local rejection,
 * not the callee's failure: a {@link io.agentfuse.core.Guard} does not count it against the breaker and does not
 * retry it, but a fallback chain moves on.
 */
public final class BulkheadFullException extends RuntimeException {

    private final transient Bulkhead bulkhead;

    BulkheadFullException(Bulkhead bulkhead) {
        super("bulkhead '" + bulkhead.name() + "' is full: " + bulkhead.maxConcurrent() + " calls in flight",
                null, false, false);
        this.bulkhead = bulkhead;
    }

    /** The bulkhead that rejected the call. */
    public Bulkhead bulkhead() {
        return bulkhead;
    }
}
