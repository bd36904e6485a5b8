/**
 * The provider dialects, one package each ({@code openai}: Chat Completions, {@code anthropic}:
 * Messages, {@code responses}: the OpenAI Responses API, spoken to {@code openai} providers too),
 * registered in {@link io.agentfuse.gateway.provider.Dialects}. To add one, write a package with a {@link io.agentfuse.gateway.dialect.Dialect}
 * implementation (its paths, headers, codecs, stream decoder and encoder, answer check and error
 * mapping) and add it to {@code Dialects}; the gateway routes its endpoint and serves providers
 * of its {@code type} without further changes.
 */
package io.agentfuse.gateway.provider;
