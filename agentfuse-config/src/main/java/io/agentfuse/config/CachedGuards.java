package io.agentfuse.config;

import io.agentfuse.core.Clock;
import io.agentfuse.core.Guard;
import io.agentfuse.core.GuardBuilder;
import io.agentfuse.core.Scheduler;
import io.agentfuse.core.Sleeper;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.event.RetryListener;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How {@link AgentfuseRuntime} makes its guards and keeps them: one guard per name and
 * configuration generation, on the registry's breaker, rebuilt when that breaker is no longer the
 * registry's (replaced by a reload, or evicted while idle and created anew). Every guard runs on the
 * runtime's clock, scheduler, sleeper and retry listener.
 *
 * <p>Thread-safe: the caches are the generation's concurrent maps.
 */
final class CachedGuards {

    private final CircuitBreakerRegistry registry;
    private final Supplier<ConfigGeneration> current;
    private final SharedLimits shared;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Sleeper sleeper;
    private final RetryListener retryListener;

    CachedGuards(CircuitBreakerRegistry registry, Supplier<ConfigGeneration> current, SharedLimits shared,
                 AgentfuseRuntimeBuilder settings) {
        this.registry = registry;
        this.current = current;
        this.shared = shared;
        this.clock = settings.clock;
        this.scheduler = settings.scheduler;
        this.sleeper = settings.sleeper;
        this.retryListener = settings.retryListener;
    }

    /** A builder for a guard named {@code name} on the runtime's clock, scheduler, sleeper and retry listener. */
    GuardBuilder builder(String name) {
        return Guard.builder(name).clock(clock).scheduler(scheduler).sleeper(sleeper).retryListener(retryListener);
    }

    /** The guard of a tool named {@code name}: the global retry with the tool's attempts, its breaker and timeout. */
    Guard toolGuard(ConfigGeneration generation, String name, ToolConfig tool, String upstream) {
        RetryConfig retry = generation.config().retry();
        return guard(generation, name, name, tool.circuitBreaker(), breaker -> builder(name)
                .retry(retry.toRetryPolicy(shared.budget(upstream, retry.budget())).toBuilder()
                        .maxAttempts(tool.maxAttempts())
                        .build())
                .circuitBreaker(breaker)
                .timeout(tool.timeout()));
    }

    /**
     * The guard cached under {@code cacheKey} (one breaker may serve two guards) on the breaker
     * {@code name} with {@code settings}, made by {@code build} when missing or stale.
     */
    Guard guard(ConfigGeneration generation, String cacheKey, String name, BreakerConfig settings,
                Function<CircuitBreaker, GuardBuilder> build) {
        CircuitBreakerConfig breakerConfig = generation.breakerConfigs()
                .computeIfAbsent(name, key -> settings.toCircuitBreakerConfig());
        CircuitBreaker breaker = registry.breaker(name, breakerConfig);
        if (breaker.config() != breakerConfig && generation == current.get() && !breaker.config().equals(breakerConfig)) {
            // created under the previous configuration while a reload was scanning the registry
            breaker = registry.replace(name, breakerConfig);
        }
        CircuitBreaker registered = breaker;
        Guard cached = generation.guards().get(cacheKey);
        if (cached != null && cached.circuitBreaker() == registered) {
            return cached;
        }
        return generation.guards().compute(cacheKey, (key, existing) ->
                existing != null && existing.circuitBreaker() == registered ? existing : build.apply(registered).build());
    }
}
