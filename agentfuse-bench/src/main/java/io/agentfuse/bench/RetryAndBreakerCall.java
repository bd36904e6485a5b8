package io.agentfuse.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A successful call through a retry around a closed breaker: what every guarded model call pays
 * when nothing goes wrong. resilience4j composes
 * {@code Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(breaker, call))}; Failsafe
 * runs {@code Failsafe.with(retryPolicy, breaker).get(call)}; agentfuse runs
 * {@code guard.execute(call)} on a {@code Guard} with the same retry and breaker.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class RetryAndBreakerCall {

    @Benchmark
    public void agentfuse(RetryingBreakers guards, Blackhole blackhole) {
        blackhole.consume(guards.agentfuse.execute(guards.call));
    }

    /** The same guard over a breaker with the seed's default triggers. */
    @Benchmark
    public void agentfuseDefaults(RetryingBreakers guards, Blackhole blackhole) {
        blackhole.consume(guards.agentfuseDefaults.execute(guards.call));
    }

    @Benchmark
    public void resilience4j(RetryingBreakers guards, Blackhole blackhole) {
        blackhole.consume(guards.resilience4jCall.get());
    }

    @Benchmark
    public void failsafe(RetryingBreakers guards, Blackhole blackhole) {
        blackhole.consume(guards.failsafeExecutor.get(guards.checkedCall));
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends RetryAndBreakerCall {
    }

    /** Two callers on the same guards. */
    @Threads(2)
    public static class TwoThreads extends RetryAndBreakerCall {
    }
}
