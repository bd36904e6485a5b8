/**
 * The context-budget ladder ({@link io.agentfuse.agent.context.ContextBudget}) and compaction
 * ({@link io.agentfuse.agent.context.Compactor}): summarise older turns at AUTO_COMPACT, roll
 * back and snip the oldest turns when that fails, refuse with
 * {@link io.agentfuse.agent.context.ContextWindowFullException} when nothing more can go.
 */
package io.agentfuse.agent.context;
