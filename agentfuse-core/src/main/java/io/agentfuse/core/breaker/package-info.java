/**
 * The circuit breaker: {@link io.agentfuse.core.breaker.CircuitBreaker}, its immutable
 * {@link io.agentfuse.core.breaker.CircuitBreakerConfig} and {@link io.agentfuse.core.breaker.Trigger}s,
 * and the {@link io.agentfuse.core.breaker.CircuitBreakerRegistry} that makes named breakers from templates.
 *
 * <p>What a {@link io.agentfuse.core.breaker.CircuitBreaker} guarantees:
 * <ul>
 *   <li>Each transition is made by exactly one thread (a CAS on the state object) and publishes
 *       exactly one event; an action that leaves the state as it was (forcing open a forced-open
 *       breaker) publishes nothing.</li>
 *   <li>Every permit is a stamp ({@code acquire()}): an outcome reported with the stamp of an
 *       earlier state (a late answer, a written-off probe) is not counted, so HALF_OPEN counts
 *       exactly its own probes. A long call (a stream) reports its final outcome with the permit it
 *       started with.</li>
 *   <li>In CLOSED, the permission check is one volatile read and recording is lock-free; neither
 *       allocates. A rejected call gets a {@link io.agentfuse.core.breaker.Rejection} (or its
 *       {@link io.agentfuse.core.breaker.CircuitOpenException}) made once per open period, and is counted.</li>
 *   <li>{@code state()} is true when read: an OPEN breaker whose open time is over reports
 *       HALF_OPEN without waiting for a call.</li>
 *   <li>Time comes only from the injected {@link io.agentfuse.core.Clock}.</li>
 *   <li>In a fleet (a registry with a state store), HALF_OPEN's probes run on one instance: the
 *       first call that finds the state there asks the store for the probe lease and, through
 *       {@link io.agentfuse.core.breaker.CircuitBreaker#acquire(java.util.function.LongConsumer)},
 *       waits for the answer without a thread; no other call waits for the store, and a shared
 *       trip keeps a breaker open no longer than its own rules would.</li>
 * </ul>
 * The package-private state classes ({@code ClosedState}, {@code OpenState}, {@code HalfOpenState},
 * {@code OperatorState}, all extending {@code AbstractState}) are the state machine;
 * {@link io.agentfuse.core.breaker.CircuitState} is what callers see of it.
 */
package io.agentfuse.core.breaker;
