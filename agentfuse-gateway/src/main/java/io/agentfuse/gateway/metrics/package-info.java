/**
 * The gateway's Micrometer metrics, served in the Prometheus format, and the last five minutes of
 * answered requests second by second ({@link io.agentfuse.gateway.metrics.RecentTraffic}) that the
 * dashboard draws.
 */
package io.agentfuse.gateway.metrics;
