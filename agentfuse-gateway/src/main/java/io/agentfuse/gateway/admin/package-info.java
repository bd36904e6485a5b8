/**
 * The operator side of the gateway: the breakers' admin API with its token rules, the live event
 * stream of state transitions, and the dashboard page.
 */
package io.agentfuse.gateway.admin;
