/**
 * Retrying: {@link io.agentfuse.core.retry.RetryPolicy} (how many attempts, which outcomes, how
 * long to wait, honouring {@code Retry-After} within a cap), {@link io.agentfuse.core.retry.Jitter}
 * and the fleet-friendly {@link io.agentfuse.core.retry.RetryBudget}. Policies are immutable and
 * pure functions of their inputs (attempt, previous delay, time, a random number), so they can be
 * property-tested; the waiting itself is done by {@link io.agentfuse.core.Guard}.
 */
package io.agentfuse.core.retry;
