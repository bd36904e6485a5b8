/**
 * What every LLM API dialect has in common: the {@link io.agentfuse.gateway.dialect.Dialect}
 * interface that each provider package implements, and the neutral model that carries requests,
 * answers and stream events between two dialects ({@link io.agentfuse.gateway.dialect.ChatRequest},
 * {@link io.agentfuse.gateway.dialect.ChatResponse}, {@link io.agentfuse.gateway.dialect.StreamEvent}).
 *
 * <p>Guarantees: within one dialect a request goes upstream as the caller sent it (model name
 * replaced, unknown fields kept) and an answer comes back as the provider sent it, once checked to
 * be well-formed; across dialects a request is either translated without changing its meaning or
 * refused with {@link io.agentfuse.gateway.dialect.UntranslatableException}; a broken answer or
 * stream event is never passed on ({@link io.agentfuse.gateway.dialect.MalformedAnswerException},
 * {@link io.agentfuse.gateway.dialect.StreamEvent.Error}). This package knows no provider: the
 * providers live in {@code io.agentfuse.gateway.provider}.
 */
package io.agentfuse.gateway.dialect;
