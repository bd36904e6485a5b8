package io.agentfuse.redis;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The store's calls to Redis behind its own breaker ({@code state:redis}): no call is made while
 * Redis has just failed three times in a row, and every answer completes on the store's thread, so
 * neither a caller's thread nor Lettuce's event loop runs what the registry does with it.
 */
final class GuardedRedis {

    private static final CircuitBreakerConfig CONFIG = CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3))
            .resetTimeout(Duration.ofSeconds(2))
            .build();

    private final CircuitBreaker breaker = CircuitBreaker.of("state:redis", CONFIG);
    private final Executor thread;

    GuardedRedis(Executor thread) {
        this.thread = thread;
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /** Runs {@code command} on {@code connection} if Redis may be called now; fails the stage otherwise. */
    <T> CompletionStage<T> call(StatefulRedisConnection<String, String> connection, Supplier<RedisFuture<T>> command) {
        long permit = breaker.acquire();
        if (permit == CircuitBreaker.NOT_PERMITTED) {
            return CompletableFuture.failedFuture(breaker.currentRejection().exception());
        }
        if (connection == null || !connection.isOpen()) {
            breaker.onOutcome(permit, Outcome.CONNECTION_ERROR, -1, RetryAfter.NONE);
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        RedisFuture<T> pending;
        try {
            pending = command.get();
        } catch (RuntimeException rejected) {
            breaker.onOutcome(permit, Outcome.CONNECTION_ERROR, -1, RetryAfter.NONE);
            return CompletableFuture.failedFuture(rejected);
        }
        pending.whenCompleteAsync((value, failure) -> {
            breaker.onOutcome(permit, failure == null ? Outcome.SUCCESS : outcomeOf(failure), -1, RetryAfter.NONE);
            if (failure == null) {
                answer.complete(value);
            } else {
                answer.completeExceptionally(failure);
            }
        }, thread);
        return answer;
    }

    private static Outcome outcomeOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof RedisCommandTimeoutException ? Outcome.TIMEOUT : Outcome.CONNECTION_ERROR;
    }

    /** Redis answers again: calls may be made at once rather than after the open time. */
    void reconnected() {
        if (breaker.state() != CircuitState.CLOSED) {
            breaker.close("Redis reconnected");
        }
    }
}
