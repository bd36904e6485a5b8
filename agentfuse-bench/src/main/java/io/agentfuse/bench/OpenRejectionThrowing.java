package io.agentfuse.bench;

import dev.failsafe.CircuitBreakerOpenException;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A call against an open breaker through the usual entry point, which rejects it by throwing;
 * the caller catches the library's exception. This is the fast-fail path an outage runs on.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class OpenRejectionThrowing {

    /** agentfuse {@code executeSupplier} throwing {@link CircuitOpenException}. */
    @Benchmark
    public void agentfuse(OpenBreakers breakers, Blackhole blackhole) {
        try {
            blackhole.consume(breakers.agentfuse.executeSupplier(breakers.call));
        } catch (CircuitOpenException rejected) {
            blackhole.consume(rejected);
        }
    }

    /** The same with the seed's default triggers. */
    @Benchmark
    public void agentfuseDefaults(OpenBreakers breakers, Blackhole blackhole) {
        try {
            blackhole.consume(breakers.agentfuseDefaults.executeSupplier(breakers.call));
        } catch (CircuitOpenException rejected) {
            blackhole.consume(rejected);
        }
    }

    /** resilience4j's decorated supplier throwing {@link CallNotPermittedException} (stack trace on, its default). */
    @Benchmark
    public void resilience4j(OpenBreakers breakers, Blackhole blackhole) {
        try {
            blackhole.consume(breakers.resilience4jCall.get());
        } catch (CallNotPermittedException rejected) {
            blackhole.consume(rejected);
        }
    }

    /** resilience4j with {@code writableStackTraceEnabled(false)}. */
    @Benchmark
    public void resilience4jTuned(OpenBreakers breakers, Blackhole blackhole) {
        try {
            blackhole.consume(breakers.resilience4jTunedCall.get());
        } catch (CallNotPermittedException rejected) {
            blackhole.consume(rejected);
        }
    }

    /** Failsafe's executor throwing {@link CircuitBreakerOpenException}. */
    @Benchmark
    public void failsafe(OpenBreakers breakers, Blackhole blackhole) {
        try {
            blackhole.consume(breakers.failsafeExecutor.get(breakers.checkedCall));
        } catch (CircuitBreakerOpenException rejected) {
            blackhole.consume(rejected);
        }
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends OpenRejectionThrowing {
    }

    /** Two callers on the same breaker. */
    @Threads(2)
    public static class TwoThreads extends OpenRejectionThrowing {
    }
}
