package io.agentfuse.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A call against an open breaker whose rejection becomes a fallback value without the caller
 * catching anything: agentfuse {@code execute(call, whenOpen)}, Failsafe
 * {@code Failsafe.with(Fallback.of(..), breaker)}. resilience4j's circuit-breaker module has no
 * such entry point (its fallback decorator lives in {@code resilience4j-all} and catches the
 * thrown exception), so its baseline is the throwing rejection.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class OpenRejectionToFallback {

    /** agentfuse hands the shared {@code Rejection} value to {@code whenOpen}. */
    @Benchmark
    public void agentfuse(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.agentfuse.execute(breakers.call, breakers.whenOpen));
    }

    /** The same with the seed's default triggers. */
    @Benchmark
    public void agentfuseDefaults(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.agentfuseDefaults.execute(breakers.call, breakers.whenOpen));
    }

    /** Failsafe runs its fallback policy on the breaker's rejection. */
    @Benchmark
    public void failsafe(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.failsafeWithFallback.get(breakers.checkedCall));
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends OpenRejectionToFallback {
    }

    /** Two callers on the same breaker. */
    @Threads(2)
    public static class TwoThreads extends OpenRejectionToFallback {
    }
}
