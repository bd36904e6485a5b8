/**
 * The HTTP gateway (docs/design.md §7): {@link io.agentfuse.gateway.GatewayServer} starts it from a
 * configuration and mounts the model pipeline per dialect, the MCP proxy, the admin API and
 * {@code /metrics}; {@link io.agentfuse.gateway.GatewayOptions} holds what the command line decides;
 * {@link io.agentfuse.gateway.GatewayVertx} makes the Vert.x it runs on, on the configured transport.
 * Each part of the request's way is a package below: {@code server} (edge limits), {@code pipeline},
 * {@code dialect} and {@code provider}, {@code upstream}, {@code mcp}, {@code admin}, {@code metrics}.
 */
package io.agentfuse.gateway;
