/** The gateway's Micrometer metrics, served in the Prometheus format. */
package io.agentfuse.gateway.metrics;
