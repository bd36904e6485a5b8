/** The permission breaker's state machine and denial counts. Not part of the public API. */
package io.agentfuse.agent.permission.internal;
