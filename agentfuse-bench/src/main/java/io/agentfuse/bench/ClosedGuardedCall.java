package io.agentfuse.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A successful call through a closed breaker, the way an application writes it: ask permission,
 * make the call, record its outcome (with its duration where the library measures one).
 *
 * <p>Each library through its usual entry point: agentfuse {@code executeSupplier}, resilience4j a
 * supplier decorated once with {@code CircuitBreaker.decorateSupplier}, Failsafe an executor built
 * once with {@code Failsafe.with(breaker)}. Run at one and at two threads by the nested classes.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class ClosedGuardedCall {

    /** agentfuse with only the failure-rate trigger shared by all three libraries. */
    @Benchmark
    public void agentfuse(ClosedBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.agentfuse.executeSupplier(breakers.call));
    }

    /** agentfuse with all six default triggers of the seed. */
    @Benchmark
    public void agentfuseDefaults(ClosedBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.agentfuseDefaults.executeSupplier(breakers.call));
    }

    /** resilience4j with its defaults (synchronized sliding window). */
    @Benchmark
    public void resilience4j(ClosedBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.resilience4jCall.get());
    }

    /** resilience4j with its lock-free sliding window. */
    @Benchmark
    public void resilience4jTuned(ClosedBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.resilience4jTunedCall.get());
    }

    /** Failsafe's only synchronous entry point. */
    @Benchmark
    public void failsafe(ClosedBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.failsafeExecutor.get(breakers.checkedCall));
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends ClosedGuardedCall {
    }

    /** Two callers on the same breaker. */
    @Threads(2)
    public static class TwoThreads extends ClosedGuardedCall {
    }
}
