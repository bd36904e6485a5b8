/**
 * Guards that live inside an agent session rather than around a remote call.
 *
 * <ul>
 *   <li>{@link io.agentfuse.agent.permission}: a circuit breaker on the user's "no" to
 *       tool-permission prompts, reset only by the user.</li>
 *   <li>{@link io.agentfuse.agent.context}: the context-budget ladder and compaction that never
 *       leaves a conversation worse when it fails.</li>
 *   <li>{@link io.agentfuse.agent.conversation}: the provider-neutral conversation model the
 *       context guards work on.</li>
 *   <li>{@link io.agentfuse.agent.tokens}: token counting, from provider usage, exact encodings,
 *       or a safe estimate.</li>
 *   <li>{@link io.agentfuse.agent.budget}: token and cost budgets per window, reserved before a
 *       call and settled with its usage after.</li>
 * </ul>
 * Packages named {@code internal} are implementation details and may change without notice.
 */
package io.agentfuse.agent;
