/**
 * The model endpoints that need no model call: {@code GET /v1/models}
 * ({@link io.agentfuse.gateway.models.ModelListHandler}) and {@code POST /v1/messages/count_tokens}
 * ({@link io.agentfuse.gateway.models.TokenCountHandler}).
 */
package io.agentfuse.gateway.models;
