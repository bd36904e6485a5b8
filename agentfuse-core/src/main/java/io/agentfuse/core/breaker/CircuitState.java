package io.agentfuse.core.breaker;

/**
 * The states of a {@link CircuitBreaker}.
 *
 * <pre>
 *   CLOSED ──trigger fires──▶ OPEN ──resetTimeout──▶ HALF_OPEN ──probes succeed──▶ CLOSED
 *                              ▲                         │
 *                              └──────probe fails────────┘
 * </pre>
 * {@link #FORCED_OPEN} and {@link #DISABLED} are set only by an operator and left only by one.
 */
public enum CircuitState {
    /** Calls pass; outcomes are recorded and the triggers watch them. */
    CLOSED,
    /** Calls are rejected at once until the open time ends (or, in user-led mode, until a reset). */
    OPEN,
    /** A limited number of probe calls pass; their outcomes decide between CLOSED and OPEN. */
    HALF_OPEN,
    /** An operator opened the breaker: every call is rejected until an operator closes it. */
    FORCED_OPEN,
    /** An operator switched the breaker off: every call passes and nothing is recorded. */
    DISABLED;

    /** Whether calls are rejected in this state (before any probe or timing is considered). */
    public boolean rejectsCalls() {
        return this == OPEN || this == FORCED_OPEN;
    }
}
