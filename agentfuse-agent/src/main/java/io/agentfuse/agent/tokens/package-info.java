/**
 * Token counting: {@link io.agentfuse.agent.tokens.TokenCounter#forModel(String)} picks the exact
 * tiktoken encoding for OpenAI models and a documented estimate for the rest;
 * {@link io.agentfuse.agent.tokens.UsageAwareTokenCounter} trusts what a provider reports.
 */
package io.agentfuse.agent.tokens;
