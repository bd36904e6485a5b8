package io.agentfuse.redis.testing;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerRegistry;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.redis.RedisStateStore;

import java.util.concurrent.locks.LockSupport;

/**
 * An instance of a fleet in a process of its own, for tests that need a small heap: joins the
 * fleet on Redis at {@code args[0]} with key prefix {@code args[1]}, says {@code ready} once
 * connected, then {@code open} when breaker {@code args[2]} opens, and exits. Errors anywhere,
 * including an {@link OutOfMemoryError} in the Redis client's threads, reach its output through
 * the log.
 */
public final class SmallHeapFleetMember {

    private SmallHeapFleetMember() {
    }

    /** Runs the instance; exits 0 once the breaker opened, 1 if it did not within a minute. */
    public static void main(String[] args) {
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> System.out.println("uncaught in " + thread.getName() + ": " + error));
        RedisStateStore store = RedisStateStore.create(args[0], args[1]);
        CircuitBreaker breaker = CircuitBreakerRegistry.builder().stateStore(store).build().breaker(args[2]);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!store.isConnected() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(10_000_000L);
        }
        System.out.println("ready");
        while (breaker.state() != CircuitState.OPEN && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(10_000_000L);
        }
        System.out.println(breaker.state() == CircuitState.OPEN ? "open" : "still " + breaker.state());
        store.close();
        System.exit(breaker.state() == CircuitState.OPEN ? 0 : 1);
    }
}
