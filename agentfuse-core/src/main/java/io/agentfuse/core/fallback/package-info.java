/**
 * Fallback chains: {@link io.agentfuse.core.fallback.FallbackChain} tries ordered steps, each
 * behind its own {@link io.agentfuse.core.Guard}, and says which step answered
 * ({@link io.agentfuse.core.fallback.FallbackResult}) or why every step failed
 * ({@link io.agentfuse.core.fallback.FallbackExhaustedException}, one
 * {@link io.agentfuse.core.fallback.StepFailure} per step).
 */
package io.agentfuse.core.fallback;
