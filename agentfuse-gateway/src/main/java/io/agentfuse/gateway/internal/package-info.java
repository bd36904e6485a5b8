/** Plumbing of the gateway that is not part of its API. */
package io.agentfuse.gateway.internal;
