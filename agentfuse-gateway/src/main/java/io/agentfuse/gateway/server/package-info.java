/**
 * The gateway's HTTP edge: one server instance per event loop ({@link io.agentfuse.gateway.server.GatewayVerticle}),
 * and what protects the process from careless or hostile peers before a request reaches a route —
 * connection count and deadlines ({@link io.agentfuse.gateway.server.ConnectionGuard}), request
 * framing ({@link io.agentfuse.gateway.server.StrictRequestDecoder}), and the {@code Host},
 * {@code Origin} and {@code Content-Type} rules ({@link io.agentfuse.gateway.server.RequestGate}); a
 * caller's connection is closed when a write to it fails ({@link io.agentfuse.gateway.server.FailedWriteClose}).
 * Every refusal is answered by {@link io.agentfuse.gateway.server.EdgeErrors} in the caller's dialect.
 */
package io.agentfuse.gateway.server;
