/**
 * An immutable, provider-neutral conversation: {@link io.agentfuse.agent.conversation.Message}s
 * with roles and content blocks (text, tool calls, tool results, and raw blocks passed through),
 * into which a gateway converts OpenAI and Anthropic requests and back.
 */
package io.agentfuse.agent.conversation;
