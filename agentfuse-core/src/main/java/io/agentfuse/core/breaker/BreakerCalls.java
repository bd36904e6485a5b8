package io.agentfuse.core.breaker;

import io.agentfuse.core.RetryAfter;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * How {@link CircuitBreaker} runs a permitted call and records how it ended: timed on the
 * breaker's call clock only when a trigger or listener uses the duration; another breaker's
 * rejection from inside the call gives the permit back instead of counting as a failure.
 */
final class BreakerCalls {

    private BreakerCalls() {
    }

    static <T> T callAndRecord(CircuitBreaker breaker, long permit, Supplier<T> call) {
        boolean timed = breaker.timesCalls();
        long start = timed ? breaker.clock().nanoTime() : 0L;
        T result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            recordFailure(breaker, permit, e, timed ? breaker.clock().nanoTime() - start : -1L);
            throw e;
        }
        breaker.record(permit, breaker.config().classifier().classifyResult(result),
                timed ? breaker.clock().nanoTime() - start : -1L, RetryAfter.NONE);
        return result;
    }

    static <T> T callAndRecord(CircuitBreaker breaker, long permit, Callable<T> call) throws Exception {
        boolean timed = breaker.timesCalls();
        long start = timed ? breaker.clock().nanoTime() : 0L;
        T result;
        try {
            result = call.call();
        } catch (Exception | Error e) {
            recordFailure(breaker, permit, e, timed ? breaker.clock().nanoTime() - start : -1L);
            throw e;
        }
        breaker.record(permit, breaker.config().classifier().classifyResult(result),
                timed ? breaker.clock().nanoTime() - start : -1L, RetryAfter.NONE);
        return result;
    }

    private static void recordFailure(CircuitBreaker breaker, long permit, Throwable failure, long durationNanos) {
        if (breaker.isInnerRejection(failure)) {
            breaker.release(permit); // refused further in: the callee was not reached
        } else {
            breaker.record(permit, breaker.config().classifier().classify(failure), durationNanos,
                    RetryAfter.ofError(failure, breaker.clock().epochMillis()));
        }
    }
}
