/**
 * The one Micrometer binder of the breaker meters ({@link io.agentfuse.config.metrics.AgentfuseBreakerMetrics},
 * docs/design.md §9), shared by the gateway and the Spring Boot auto-configuration. Micrometer is an
 * optional dependency: only this package needs it.
 */
package io.agentfuse.config.metrics;
