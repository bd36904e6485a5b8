package io.agentfuse.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.function.CheckedSupplier;
import io.agentfuse.core.Guard;
import io.agentfuse.core.retry.RetryPolicy;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * A retry around a closed breaker, in each library, composed once and shared by all benchmark
 * threads. The retry is the seed's: 4 attempts in all, waiting 2 s then doubling (never reached
 * here, because every call succeeds), no retry budget; the breaker is {@link ComparableBreakers}'
 * common one. agentfuse composes them in a {@link Guard} ({@code Retry(CircuitBreaker(call))}).
 */
@State(Scope.Benchmark)
public class RetryingBreakers {

    /** Attempts in all, the first one included. */
    static final int MAX_ATTEMPTS = 4;
    /** The wait before the first retry; each later wait doubles. */
    static final Duration FIRST_WAIT = Duration.ofSeconds(2);
    /** The longest wait between attempts. */
    static final Duration MAX_WAIT = Duration.ofSeconds(30);

    /** What the guarded call returns; not final, so it is read on every call. */
    String answer = "answer";

    final Supplier<String> call = () -> answer;
    final CheckedSupplier<String> checkedCall = () -> answer;

    Guard agentfuse;
    Guard agentfuseDefaults;
    Supplier<String> resilience4jCall;
    FailsafeExecutor<Object> failsafeExecutor;

    @Setup(Level.Trial)
    public void compose() {
        agentfuse = Guard.builder("agentfuse")
                .retry(RetryPolicy.builder()
                        .maxAttempts(MAX_ATTEMPTS)
                        .initialDelay(FIRST_WAIT)
                        .multiplier(2.0)
                        .maxDelay(MAX_WAIT)
                        .build())
                .circuitBreaker(ComparableBreakers.agentfuse())
                .build();
        agentfuseDefaults = Guard.builder("agentfuse-defaults")
                .retry(agentfuse.retryPolicy())
                .circuitBreaker(ComparableBreakers.agentfuseDefaults())
                .build();

        Retry retry = Retry.of("resilience4j", RetryConfig.custom()
                .maxAttempts(MAX_ATTEMPTS)
                .intervalFunction(IntervalFunction.ofExponentialBackoff(FIRST_WAIT, 2.0, MAX_WAIT))
                .build());
        resilience4jCall = Retry.decorateSupplier(retry,
                io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(ComparableBreakers.resilience4j(), call));

        dev.failsafe.RetryPolicy<Object> retryPolicy = dev.failsafe.RetryPolicy.builder()
                .withMaxAttempts(MAX_ATTEMPTS)
                .withBackoff(FIRST_WAIT, MAX_WAIT, 2.0)
                .build();
        failsafeExecutor = Failsafe.with(retryPolicy, ComparableBreakers.failsafe());
    }
}
