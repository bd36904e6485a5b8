package io.agentfuse.bench;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * The breaker alone, without a call: take a permission from a closed breaker and record a success,
 * as an asynchronous client or a gateway that measures the call itself does.
 *
 * <p>agentfuse {@code acquire} + {@code onOutcome(permit, SUCCESS, nanos, NONE)} (the stamped permit); resilience4j
 * {@code tryAcquirePermission} + {@code onSuccess(nanos, NANOSECONDS)}; Failsafe
 * {@code tryAcquirePermit} + {@code recordSuccess} (it takes no duration).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class ClosedPermitAndRecord {

    /** agentfuse with only the failure-rate trigger shared by all three libraries. */
    @Benchmark
    public void agentfuse(ClosedBreakers breakers, Blackhole blackhole) {
        long permit = breakers.agentfuse.acquire();
        if (permit != CircuitBreaker.NOT_PERMITTED) {
            breakers.agentfuse.onOutcome(permit, Outcome.SUCCESS, breakers.durationNanos, RetryAfter.NONE);
        }
        blackhole.consume(permit);
    }

    /** agentfuse with all six default triggers of the seed. */
    @Benchmark
    public void agentfuseDefaults(ClosedBreakers breakers, Blackhole blackhole) {
        long permit = breakers.agentfuseDefaults.acquire();
        if (permit != CircuitBreaker.NOT_PERMITTED) {
            breakers.agentfuseDefaults.onOutcome(permit, Outcome.SUCCESS, breakers.durationNanos, RetryAfter.NONE);
        }
        blackhole.consume(permit);
    }

    /** resilience4j with its defaults (synchronized sliding window). */
    @Benchmark
    public void resilience4j(ClosedBreakers breakers, Blackhole blackhole) {
        boolean permitted = breakers.resilience4j.tryAcquirePermission();
        if (permitted) {
            breakers.resilience4j.onSuccess(breakers.durationNanos, TimeUnit.NANOSECONDS);
        }
        blackhole.consume(permitted);
    }

    /** resilience4j with its lock-free sliding window. */
    @Benchmark
    public void resilience4jTuned(ClosedBreakers breakers, Blackhole blackhole) {
        boolean permitted = breakers.resilience4jTuned.tryAcquirePermission();
        if (permitted) {
            breakers.resilience4jTuned.onSuccess(breakers.durationNanos, TimeUnit.NANOSECONDS);
        }
        blackhole.consume(permitted);
    }

    /** Failsafe's standalone breaker API. */
    @Benchmark
    public void failsafe(ClosedBreakers breakers, Blackhole blackhole) {
        boolean permitted = breakers.failsafe.tryAcquirePermit();
        if (permitted) {
            breakers.failsafe.recordSuccess();
        }
        blackhole.consume(permitted);
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends ClosedPermitAndRecord {
    }

    /** Two callers on the same breaker. */
    @Threads(2)
    public static class TwoThreads extends ClosedPermitAndRecord {
    }
}
