/**
 * Azure OpenAI's v1 API, spoken to {@code azure} providers: OpenAI's Chat Completions and Responses
 * codecs with Azure's authentication ({@code api-key} or an Entra ID token), {@code api-version},
 * prompt-filter stream chunk and error classification.
 */
package io.agentfuse.gateway.provider.azure;
