/**
 * The permission-denial breaker: {@link io.agentfuse.agent.permission.PermissionBreaker} counts
 * the user's denials of tool-permission prompts, switches to manual confirmation after too many,
 * and returns to auto mode only when the user explicitly approves again.
 */
package io.agentfuse.agent.permission;
