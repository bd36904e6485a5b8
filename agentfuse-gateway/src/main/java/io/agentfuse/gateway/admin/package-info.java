/**
 * The operator side of the gateway: the breakers' admin API with its token rules, the live event
 * stream of state transitions, the per-second traffic of the last minutes, and the dashboard page.
 */
package io.agentfuse.gateway.admin;
