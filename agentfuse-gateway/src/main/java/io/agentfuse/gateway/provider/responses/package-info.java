/**
 * The OpenAI Responses API ({@code POST /v1/responses}) as a provider dialect,
 * {@link io.agentfuse.gateway.provider.responses.ResponsesDialect}, spoken to providers of
 * {@code type: openai} beside their Chat Completions: its request parser
 * ({@link io.agentfuse.gateway.provider.responses.ResponsesRequestParser}) and writer
 * ({@link io.agentfuse.gateway.provider.responses.ResponsesRequestWriter}), the complete answer
 * ({@link io.agentfuse.gateway.provider.responses.ResponsesResponseCodec}) and the stream
 * ({@link io.agentfuse.gateway.provider.responses.ResponsesStreamEncoder},
 * {@link io.agentfuse.gateway.provider.responses.ResponsesStreamDecoder}). Answers read from a
 * provider are validated: a malformed one is a
 * {@link io.agentfuse.gateway.dialect.MalformedAnswerException} (complete) or a malformed-event
 * error (streamed), never a broken answer passed on.
 */
package io.agentfuse.gateway.provider.responses;
