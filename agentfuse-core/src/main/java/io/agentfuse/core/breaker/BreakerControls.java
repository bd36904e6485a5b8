package io.agentfuse.core.breaker;

/**
 * What opens, closes or switches off a {@link CircuitBreaker} other than its own triggers and
 * probes: an operator (the admin endpoints, the CLI), a server that asks for a wait longer than a
 * retry makes ({@code Retry-After}), and a caller that judges failures its own way (the permission
 * breaker's denials and approvals). Each change is one transition with its event, as the triggers'
 * are (see the package documentation).
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * breaker.forceOpen("provider incident INC-42");
 * breaker.close("incident over");
 * }</pre>
 */
public sealed interface BreakerControls permits CircuitBreaker {

    /**
     * Keeps the breaker open at least {@code retryAfterNanos} (capped by {@code maxRetryAfter}), opening or
     * extending it; operator states are left alone. For a server's wait longer than a retry makes (docs/design.md §4).
     */
    default void holdOpen(long retryAfterNanos, String reason) {
        CircuitBreaker breaker = breaker();
        breaker.transitions().holdOpen(breaker.timing().cappedRetryAfter(retryAfterNanos), reason);
    }

    /**
     * Opens the breaker now, as a trigger would, for a caller that judges failures its own way (the
     * permission breaker); with {@code autoHalfOpen(false)}, OPEN is then left only through {@link #transitionToHalfOpen()}.
     */
    default void open(String reason) {
        holdOpen(0L, reason);
    }

    /** Opens the breaker until an operator closes it. Does nothing if it is forced open already. */
    default void forceOpen(String reason) {
        breaker().transitions().installOperatorState(CircuitState.FORCED_OPEN, reason);
    }

    /** Switches the breaker off: every call passes and nothing is recorded, until closed again. */
    default void disable(String reason) {
        breaker().transitions().installOperatorState(CircuitState.DISABLED, reason);
    }

    /** Closes the breaker afresh (counters, trips) whatever its state: {@link #reset()} with an operator's reason. */
    default void close(String reason) {
        breaker().transitions().closeAfresh("operator: " + reason);
    }

    /** {@link #close(String)} with the reason "reset": the breaker as it was when made. */
    default void reset() {
        breaker().transitions().closeAfresh("reset");
    }

    /** OPEN to HALF_OPEN now, the way out of user-led mode (an explicit approval); returns whether it moved. */
    default boolean transitionToHalfOpen() {
        return breaker().transitions().probeNow();
    }

    /** The breaker these controls are of: the only implementation (sealed). */
    private CircuitBreaker breaker() {
        return (CircuitBreaker) this;
    }
}
