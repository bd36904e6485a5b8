/**
 * {@link io.agentfuse.core.timeout.Timeout}: a limit on one call, measured on the injected
 * scheduler; a call past it ends with {@link io.agentfuse.core.timeout.CallTimeoutException}
 * ({@link io.agentfuse.core.Outcome#TIMEOUT}).
 */
package io.agentfuse.core.timeout;
