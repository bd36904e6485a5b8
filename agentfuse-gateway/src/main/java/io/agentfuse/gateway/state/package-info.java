/**
 * Where the gateway's breaker state lives: in memory, or shared with every gateway on the same
 * Redis ({@code state.store: redis}, docs/design.md §8), chosen in one place, {@link io.agentfuse.gateway.state.StateStores}.
 */
package io.agentfuse.gateway.state;
