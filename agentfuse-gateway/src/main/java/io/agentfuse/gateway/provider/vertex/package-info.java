/**
 * Vertex AI, spoken to {@code vertex} providers: Gemini models ({@link
 * io.agentfuse.gateway.provider.vertex.VertexGeminiDialect}, the Gemini wire format) and Anthropic
 * models ({@link io.agentfuse.gateway.provider.vertex.VertexAnthropicDialect}, Messages with Vertex's
 * body version) at a project's and location's paths ({@link io.agentfuse.gateway.provider.vertex.VertexEndpoint}),
 * authenticated by the OAuth2 access tokens of a service account
 * ({@link io.agentfuse.gateway.provider.vertex.VertexAccessTokens}, google-auth-library), and Vertex's
 * errors classified ({@link io.agentfuse.gateway.provider.vertex.VertexErrors}).
 */
package io.agentfuse.gateway.provider.vertex;
