/**
 * Anthropic Messages: {@link io.agentfuse.gateway.provider.anthropic.AnthropicDialect} and the
 * request parser and writer, response codec and stream decoder and encoder it is made of.
 */
package io.agentfuse.gateway.provider.anthropic;
