package io.agentfuse.core.breaker;

import io.agentfuse.core.Outcome;

/**
 * FORCED_OPEN and DISABLED: states that only an operator enters and leaves. Forced open rejects
 * every call with no reopening time; disabled lets every call through and records nothing.
 */
final class OperatorState extends AbstractState {

    private final CircuitState kind;
    private final String reason;
    private final Rejection rejection;

    OperatorState(CircuitBreaker breaker, CircuitState kind, String reason) {
        super(breaker);
        this.kind = kind;
        this.reason = reason;
        this.rejection = kind == CircuitState.FORCED_OPEN ? new Rejection(breaker, this) : null;
    }

    @Override
    CircuitState kind() {
        return kind;
    }

    @Override
    long tryAcquire() {
        if (kind == CircuitState.DISABLED) {
            return stamp;
        }
        breaker.rejected();
        return CircuitBreaker.NOT_PERMITTED;
    }

    @Override
    boolean records() {
        return kind != CircuitState.DISABLED;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long retryAfterNanos) {
        // Operators own these states: outcomes neither open nor close them.
    }

    @Override
    String reason() {
        return reason;
    }

    @Override
    Rejection rejection() {
        return rejection;
    }
}
