/**
 * The Gemini API dialect ({@code generateContent}, {@code streamGenerateContent?alt=sse},
 * {@code countTokens}), spoken to {@code gemini} providers and, for its bodies, streams and errors,
 * to Gemini models on Vertex AI: request writer and parser, response codec, SSE stream decoder and
 * encoder, and the mapping of Google's error statuses to outcomes ({@code RESOURCE_EXHAUSTED} →
 * RATE_LIMITED, {@code UNAVAILABLE} → OVERLOADED, ...).
 */
package io.agentfuse.gateway.provider.gemini;
