/**
 * Shared breaker state across a fleet, on Redis (docs/design.md §8):
 * {@link io.agentfuse.redis.RedisStateStore} implements the core's
 * {@link io.agentfuse.core.breaker.shared.BreakerStateStore} with Lettuce, pub/sub and a
 * version per breaker; {@link io.agentfuse.redis.SharedStateCodec} is its wire form.
 */
package io.agentfuse.redis;
