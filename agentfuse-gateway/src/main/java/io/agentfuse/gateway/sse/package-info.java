/**
 * Server-sent events as the gateway reads and writes them: {@link io.agentfuse.gateway.sse.SseParser}
 * parses a provider's stream incrementally, in any split of its bytes, into
 * {@link io.agentfuse.gateway.sse.SseEvent}s, which keep their UTF-8 bytes so that a relayed event is
 * never decoded and encoded again; an event over {@code server.maxSseEvent} is refused.
 */
package io.agentfuse.gateway.sse;
