/**
 * The OpenAI Responses API ({@code POST /v1/responses}) as a dialect of the neutral model: its
 * request parser ({@link io.agentfuse.gateway.dialect.responses.ResponsesRequestParser}), the
 * upstream bodies for it ({@link io.agentfuse.gateway.dialect.responses.ResponsesRequestWriter}),
 * the complete answer ({@link io.agentfuse.gateway.dialect.responses.ResponsesResponseCodec}) and
 * the stream ({@link io.agentfuse.gateway.dialect.responses.ResponsesStreamEncoder},
 * {@link io.agentfuse.gateway.dialect.responses.ResponsesStreamDecoder}). Answers read from a
 * provider are validated: a malformed one is a
 * {@link io.agentfuse.gateway.dialect.responses.MalformedAnswerException} (complete) or an error
 * event (streamed), never a broken answer passed on.
 */
package io.agentfuse.gateway.dialect.responses;
