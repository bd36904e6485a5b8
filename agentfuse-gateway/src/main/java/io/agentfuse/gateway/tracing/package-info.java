/**
 * OpenTelemetry traces of the gateway (docs/design.md §14), off unless an OTLP endpoint is configured:
 * {@link io.agentfuse.gateway.tracing.Tracing} starts one span per model request
 * ({@link io.agentfuse.gateway.tracing.RequestTrace}), a child per upstream attempt and one per MCP
 * call ({@link io.agentfuse.gateway.tracing.McpCallTrace}), continuing a caller's {@code traceparent}
 * and sending it on. When off, every hook is a no-op on a shared instance and the OpenTelemetry
 * SDK is never loaded.
 */
package io.agentfuse.gateway.tracing;
