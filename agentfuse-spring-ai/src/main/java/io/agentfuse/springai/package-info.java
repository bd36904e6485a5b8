/**
 * agentfuse for Spring AI (docs/design.md §10): {@link io.agentfuse.springai.GuardedChatModel}, a
 * {@code ChatModel} over a primary and fallbacks, each behind its guard (streams too); tool callbacks
 * behind a tool's breaker ({@link io.agentfuse.springai.GuardedToolCallback}) and the permission
 * breaker ({@link io.agentfuse.springai.PermissionToolCallback}); a chat memory kept inside the context
 * window ({@link io.agentfuse.springai.CompactingChatMemory}). What Spring AI's clients throw is
 * classified in one place, {@link io.agentfuse.springai.ModelFailures}.
 */
package io.agentfuse.springai;
