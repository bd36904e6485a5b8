/**
 * The Gemini API as callers speak it, so that Gemini CLI and the Google GenAI SDKs can sit behind
 * the gateway: the model methods ({@link io.agentfuse.gateway.gemini.GeminiEndpoint} on the paths
 * {@link io.agentfuse.gateway.gemini.GeminiMethodPath} reads) and the model list
 * ({@link io.agentfuse.gateway.gemini.GeminiModelList}). The dialect itself — bodies, answers,
 * streams, Google's errors — is {@code io.agentfuse.gateway.provider.gemini}, shared with the Gemini
 * providers.
 */
package io.agentfuse.gateway.gemini;
