/**
 * Hedging: {@link io.agentfuse.core.hedge.HedgePolicy} races a slow call with a second one, within
 * a {@link io.agentfuse.core.hedge.HedgeBudget}; a {@link io.agentfuse.core.Guard} hedges its own
 * attempts and a {@link io.agentfuse.core.fallback.FallbackChain} starts its next step.
 */
package io.agentfuse.core.hedge;
