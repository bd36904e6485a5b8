/**
 * Amazon Bedrock's Converse API, spoken to {@code bedrock} providers: the Converse request writer,
 * the answer codec, the binary event-stream reader (AWS's own framing library) and ConverseStream
 * decoder, and the mapping of Bedrock's exceptions to outcomes ({@code ThrottlingException} →
 * RATE_LIMITED, {@code ModelNotReadyException} → OVERLOADED, ...).
 */
package io.agentfuse.gateway.provider.bedrock;
