package io.agentfuse.core.breaker;

/**
 * Thrown by {@link CircuitBreakerRegistry#breaker(String)} instead of making a new breaker whose
 * name falls under a limit ({@link CircuitBreakerRegistry.Builder#limit}) that is full, with no
 * breaker of it idle long enough to be dropped. Names are often chosen by callers (a model or tool
 * name in a request); the limit keeps them from growing breakers, and the meters kept per breaker,
 * without end. {@link CircuitBreakerRegistry#tryBreaker} says the same without an exception.
 */
public final class BreakerLimitException extends IllegalStateException {

    private final String pattern;
    private final int limit;

    BreakerLimitException(String name, String pattern, int limit) {
        super("breaker " + name + " is not made: " + limit + " breakers named " + pattern
                + " are in use already (the limit), and none has been idle long enough to be dropped");
        this.pattern = pattern;
        this.limit = limit;
    }

    /** The pattern of the full limit, e.g. {@code model:*}. */
    public String pattern() {
        return pattern;
    }

    /** How many breakers the limit allows at once. */
    public int limit() {
        return limit;
    }
}
