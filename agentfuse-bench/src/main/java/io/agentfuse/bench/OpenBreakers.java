package io.agentfuse.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.Fallback;
import dev.failsafe.function.CheckedSupplier;
import io.agentfuse.core.breaker.Rejection;
import io.agentfuse.core.breaker.CircuitState;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Breakers of every library, tripped open by real failures before measuring and shared by all
 * benchmark threads; they stay open for {@link ComparableBreakers#OPEN_DURATION}, so every call
 * measured here is a rejection.
 */
@State(Scope.Benchmark)
public class OpenBreakers {

    /** What the call would return; it must never run. */
    String answer = "answer";
    /** What a caller substitutes when the breaker rejects; not final, so it is read each time. */
    String fallback = "fallback";

    final Supplier<String> call = () -> answer;
    final CheckedSupplier<String> checkedCall = () -> answer;
    final Function<Rejection, String> whenOpen = rejection -> fallback;

    io.agentfuse.core.breaker.CircuitBreaker agentfuse;
    io.agentfuse.core.breaker.CircuitBreaker agentfuseDefaults;
    io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j;
    io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4jTuned;
    Supplier<String> resilience4jCall;
    Supplier<String> resilience4jTunedCall;
    dev.failsafe.CircuitBreaker<Object> failsafe;
    FailsafeExecutor<Object> failsafeExecutor;
    FailsafeExecutor<Object> failsafeWithFallback;

    @Setup(Level.Trial)
    public void tripBreakers() {
        agentfuse = ComparableBreakers.tripped(ComparableBreakers.agentfuse());
        agentfuseDefaults = ComparableBreakers.tripped(ComparableBreakers.agentfuseDefaults());
        resilience4j = ComparableBreakers.tripped(ComparableBreakers.resilience4j());
        resilience4jTuned = ComparableBreakers.tripped(ComparableBreakers.resilience4jTuned());
        resilience4jCall = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(resilience4j, call);
        resilience4jTunedCall = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(resilience4jTuned, call);
        failsafe = ComparableBreakers.tripped(ComparableBreakers.failsafe());
        failsafeExecutor = Failsafe.with(failsafe);
        failsafeWithFallback = Failsafe.with(Fallback.<Object>of(() -> fallback), failsafe);
    }

    /** A breaker that left OPEN would have measured calls, not rejections: fail the run loudly. */
    @TearDown(Level.Trial)
    public void checkStillOpen() {
        boolean open = agentfuse.state() == CircuitState.OPEN
                && agentfuseDefaults.state() == CircuitState.OPEN
                && resilience4j.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN
                && resilience4jTuned.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN
                && failsafe.isOpen();
        if (!open) {
            throw new IllegalStateException("a breaker left OPEN during an open-state benchmark");
        }
    }
}
