/**
 * {@link io.agentfuse.core.bulkhead.Bulkhead}: at most {@code maxConcurrent} calls in flight, with
 * an optional bounded wait; a full bulkhead is a local limit, never a failure of the callee.
 */
package io.agentfuse.core.bulkhead;
