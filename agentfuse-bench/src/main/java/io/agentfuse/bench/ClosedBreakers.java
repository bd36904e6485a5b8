package io.agentfuse.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.function.CheckedSupplier;
import io.agentfuse.core.breaker.CircuitState;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.function.Supplier;

/**
 * Closed breakers of every library, shared by all benchmark threads (so two threads contend on
 * the same breaker, as two requests to one model would), plus the guarded call itself.
 *
 * <p>The call returns a non-final field, so the JIT can neither fold it to a constant nor drop it.
 * Every wrapper (resilience4j's decorated supplier, Failsafe's executor) is built once here, which
 * is each library's cheapest way to use it.
 */
@State(Scope.Benchmark)
public class ClosedBreakers {

    /** What the guarded call returns; not final, so it is read on every call. */
    String answer = "answer";
    /** What a raw recording reports as the call's duration; not final for the same reason. */
    long durationNanos = 1_000L;

    final Supplier<String> call = () -> answer;
    final CheckedSupplier<String> checkedCall = () -> answer;

    io.agentfuse.core.breaker.CircuitBreaker agentfuse;
    io.agentfuse.core.breaker.CircuitBreaker agentfuseDefaults;
    io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j;
    io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4jTuned;
    Supplier<String> resilience4jCall;
    Supplier<String> resilience4jTunedCall;
    dev.failsafe.CircuitBreaker<Object> failsafe;
    FailsafeExecutor<Object> failsafeExecutor;

    @Setup(Level.Trial)
    public void createBreakers() {
        agentfuse = ComparableBreakers.agentfuse();
        agentfuseDefaults = ComparableBreakers.agentfuseDefaults();
        resilience4j = ComparableBreakers.resilience4j();
        resilience4jTuned = ComparableBreakers.resilience4jTuned();
        resilience4jCall = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(resilience4j, call);
        resilience4jTunedCall = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(resilience4jTuned, call);
        failsafe = ComparableBreakers.failsafe();
        failsafeExecutor = Failsafe.with(failsafe);
    }

    /** A breaker that left CLOSED would have measured something else: fail the run loudly. */
    @TearDown(Level.Trial)
    public void checkStillClosed() {
        boolean closed = agentfuse.state() == CircuitState.CLOSED
                && agentfuseDefaults.state() == CircuitState.CLOSED
                && resilience4j.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED
                && resilience4jTuned.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED
                && failsafe.isClosed();
        if (!closed) {
            throw new IllegalStateException("a breaker left CLOSED during a closed-state benchmark");
        }
    }
}
