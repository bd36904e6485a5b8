package io.agentfuse.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * Asking an open breaker for permission and being refused, with no exception anywhere: the
 * cheapest rejection each library offers ({@code tryAcquirePermission} / {@code tryAcquirePermit}
 * returning {@code false}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class OpenPermissionDenied {

    @Benchmark
    public void agentfuse(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.agentfuse.tryAcquirePermission());
    }

    @Benchmark
    public void agentfuseDefaults(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.agentfuseDefaults.acquire());
    }

    @Benchmark
    public void resilience4j(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.resilience4j.tryAcquirePermission());
    }

    @Benchmark
    public void failsafe(OpenBreakers breakers, Blackhole blackhole) {
        blackhole.consume(breakers.failsafe.tryAcquirePermit());
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends OpenPermissionDenied {
    }

    /** Two callers on the same breaker. */
    @Threads(2)
    public static class TwoThreads extends OpenPermissionDenied {
    }
}
