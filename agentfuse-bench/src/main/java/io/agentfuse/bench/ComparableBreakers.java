package io.agentfuse.bench;

import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.Trigger;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;

import java.time.Duration;

/**
 * The one place where the three libraries' breakers are configured alike, so every benchmark
 * compares the same trigger.
 *
 * <p>The common trigger is the seed's failure rate: <em>more than 50 % failures among the last 20
 * calls, once at least 10 calls were made</em>. Each library expresses it as closely as it can:
 * <ul>
 *   <li><b>agentfuse</b>: exactly {@code Trigger.failureRate(Window.ofCalls(20), 10, 0.5)} and
 *       nothing else. A second agentfuse breaker uses {@link CircuitBreakerConfig#defaults()}
 *       (all six seed triggers) to show what the full set costs.</li>
 *   <li><b>resilience4j</b>: {@code COUNT_BASED} sliding window of 20, {@code minimumNumberOfCalls}
 *       10, {@code failureRateThreshold} 50. It opens at a share {@code >=} 50 % where agentfuse
 *       needs {@code >} 50 %; the cost per call is the same. Its other defaults stay (slow-call
 *       rate 100 % over 60 s, which is always evaluated), because that is what its users get.
 *       A "tuned" variant also switches to its {@code LOCK_FREE} window and turns off stack
 *       traces on {@code CallNotPermittedException}: resilience4j at its fastest.</li>
 *   <li><b>Failsafe</b>: count-based {@code withFailureThreshold(11, 20)}: 11 of the last 20
 *       executions, i.e. more than 50 %. Failsafe has no separate minimum number of calls for
 *       a count-based window; requiring 11 failures is stricter than "10 calls", never cheaper.</li>
 * </ul>
 * All three stay open for {@link #OPEN_DURATION} (long enough that no benchmark fork sees a
 * half-open transition) and let one probe through when half-open.
 */
final class ComparableBreakers {

    /** Calls in the failure-rate window. */
    static final int WINDOW = 20;
    /** Calls needed before the failure rate is judged. */
    static final int MIN_CALLS = 10;
    /** The failure share that opens the breaker (agentfuse: strictly above it). */
    static final double THRESHOLD = 0.5;
    /** The slow-call threshold: the seed's 60 s of {@code consecutiveTimeouts}, resilience4j's default made explicit. */
    static final Duration SLOW_CALL = Duration.ofSeconds(60);
    /** How long a tripped breaker stays open; far longer than any benchmark fork. */
    static final Duration OPEN_DURATION = Duration.ofHours(1);

    private ComparableBreakers() {
    }

    /** agentfuse with only the common failure-rate trigger. */
    static io.agentfuse.core.breaker.CircuitBreaker agentfuse() {
        return io.agentfuse.core.breaker.CircuitBreaker.of("agentfuse", CircuitBreakerConfig.builder()
                .trigger(Trigger.failureRate(Trigger.Window.ofCalls(WINDOW), MIN_CALLS, THRESHOLD))
                .resetTimeout(OPEN_DURATION)
                .halfOpenRequests(1)
                .build());
    }

    /** agentfuse with every default trigger of the seed (streaks, token overuse, failure rate). */
    static io.agentfuse.core.breaker.CircuitBreaker agentfuseDefaults() {
        return io.agentfuse.core.breaker.CircuitBreaker.of("agentfuse-defaults", CircuitBreakerConfig.builder()
                .resetTimeout(OPEN_DURATION)
                .build());
    }

    /** resilience4j with the common trigger and its other defaults. */
    static io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j() {
        return io.github.resilience4j.circuitbreaker.CircuitBreaker.of("resilience4j", resilience4jConfig().build());
    }

    /** resilience4j with the common trigger, its lock-free window and no stack traces on rejection. */
    static io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4jTuned() {
        return io.github.resilience4j.circuitbreaker.CircuitBreaker.of("resilience4j-tuned", resilience4jConfig()
                .slidingWindowSynchronizationStrategy(SlidingWindowSynchronizationStrategy.LOCK_FREE)
                .writableStackTraceEnabled(false)
                .build());
    }

    private static io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.Builder resilience4jConfig() {
        return io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                .slidingWindowType(SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(WINDOW)
                .minimumNumberOfCalls(MIN_CALLS)
                .failureRateThreshold((float) (THRESHOLD * 100))
                .slowCallDurationThreshold(SLOW_CALL)
                .waitDurationInOpenState(OPEN_DURATION)
                .permittedNumberOfCallsInHalfOpenState(1);
    }

    /** Failsafe with the common trigger, as a count-based threshold. */
    static dev.failsafe.CircuitBreaker<Object> failsafe() {
        return dev.failsafe.CircuitBreaker.builder()
                .withFailureThreshold((int) (WINDOW * THRESHOLD) + 1, WINDOW)
                .withDelay(OPEN_DURATION)
                .withSuccessThreshold(1)
                .build();
    }

    /** Trips {@code breaker} the way production would: by recording failures until it opens. */
    static io.agentfuse.core.breaker.CircuitBreaker tripped(io.agentfuse.core.breaker.CircuitBreaker breaker) {
        for (int i = 0; i < WINDOW && breaker.state() == CircuitState.CLOSED; i++) {
            long permit = breaker.acquire();
            if (permit != io.agentfuse.core.breaker.CircuitBreaker.NOT_PERMITTED) {
                breaker.onOutcome(permit, Outcome.SERVER_ERROR, 1_000L, -1L);
            }
        }
        return expectOpen(breaker.state() == CircuitState.OPEN, breaker.name(), breaker);
    }

    /** Trips {@code breaker} by recording failures until it opens. */
    static io.github.resilience4j.circuitbreaker.CircuitBreaker tripped(
            io.github.resilience4j.circuitbreaker.CircuitBreaker breaker) {
        RuntimeException failure = new IllegalStateException("upstream failed");
        for (int i = 0; i < WINDOW && breaker.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED; i++) {
            if (breaker.tryAcquirePermission()) {
                breaker.onError(1_000L, java.util.concurrent.TimeUnit.NANOSECONDS, failure);
            }
        }
        return expectOpen(breaker.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN,
                breaker.getName(), breaker);
    }

    /** Trips {@code breaker} by recording failures until it opens. */
    static dev.failsafe.CircuitBreaker<Object> tripped(dev.failsafe.CircuitBreaker<Object> breaker) {
        for (int i = 0; i < WINDOW && breaker.isClosed(); i++) {
            if (breaker.tryAcquirePermit()) {
                breaker.recordFailure();
            }
        }
        return expectOpen(breaker.isOpen(), "failsafe", breaker);
    }

    private static <B> B expectOpen(boolean open, String name, B breaker) {
        if (!open) {
            throw new IllegalStateException("breaker '" + name + "' did not open after " + WINDOW + " failures");
        }
        return breaker;
    }
}
