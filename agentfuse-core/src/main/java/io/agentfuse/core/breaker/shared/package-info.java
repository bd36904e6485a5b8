/**
 * The shared-state SPI: how a {@link io.agentfuse.core.breaker.CircuitBreakerRegistry} shares what
 * matters about its breakers with the other instances of a fleet, through a
 * {@link io.agentfuse.core.breaker.shared.BreakerStateStore} (Redis in {@code agentfuse-redis}).
 *
 * <p>Breakers stay local: the permission check and recording never touch the store. What is shared
 * is each change worth sharing, as a versioned {@link io.agentfuse.core.breaker.shared.SharedBreakerState}:
 * a trip (with its reason and counts), an operator's forced-open, disable, close or reset, and a
 * close after successful probes. An instance applies another's change only if its version is newer
 * than the last it knows, so late and duplicate messages are harmless, and a change it applied is
 * not shared again.
 */
package io.agentfuse.core.breaker.shared;
