/**
 * The one seam to Vert.x's and Vert.x Web's internals ({@code io.vertx.core.internal}, {@code *.impl}):
 * {@link io.agentfuse.gateway.internal.vertx.VertxHooks} and the base of the server's request
 * decoder, checked on a real connection at start-up by
 * {@link io.agentfuse.gateway.internal.vertx.VertxHookCheck}. No other package imports those internals.
 */
package io.agentfuse.gateway.internal.vertx;
