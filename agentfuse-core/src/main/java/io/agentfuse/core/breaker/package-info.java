/**
 * The circuit breaker: {@link io.agentfuse.core.breaker.CircuitBreaker}, its immutable
 * {@link io.agentfuse.core.breaker.CircuitBreakerConfig} and {@link io.agentfuse.core.breaker.Trigger}s,
 * and the {@link io.agentfuse.core.breaker.CircuitBreakerRegistry} that makes named breakers from templates.
 *
 * <p>Guarantees: each transition is made by exactly one thread (a CAS on the state object) and
 * publishes exactly one event; a transition to the state the breaker is already in publishes
 * nothing; the closed-state permission check is one volatile read and recording is lock-free and
 * allocation-free; a rejected call gets a {@link io.agentfuse.core.breaker.Rejection} (or its
 * {@link io.agentfuse.core.breaker.CircuitOpenException}) made once per open period. The package-private
 * state classes ({@code ClosedState}, {@code OpenState}, {@code HalfOpenState}, {@code OperatorState},
 * all extending {@code AbstractState}) are the state machine; {@link io.agentfuse.core.breaker.CircuitState}
 * is what callers see of it.
 */
package io.agentfuse.core.breaker;
