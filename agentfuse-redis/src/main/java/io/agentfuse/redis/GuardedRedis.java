package io.agentfuse.redis;

import io.agentfuse.core.Outcome;
import io.agentfuse.core.RetryAfter;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The store's calls to Redis behind its own breaker ({@code state:redis}): no call is made while
 * Redis has just failed three times in a row, and every answer completes on the store's thread, so
 * neither a caller's thread nor Lettuce's event loop runs what the registry does with it. Scripts
 * ({@link RedisScripts}) run through {@link #eval}, the one way the store changes Redis.
 */
final class GuardedRedis {

    private static final CircuitBreakerConfig CONFIG = CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(3))
            .resetTimeout(Duration.ofSeconds(2))
            .build();

    private final CircuitBreaker breaker = CircuitBreaker.of("state:redis", CONFIG);
    private final RedisLink link;
    private final Executor thread;

    GuardedRedis(RedisLink link, Executor thread) {
        this.link = link;
        this.thread = thread;
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /** Runs {@code script} on {@code keys} with {@code args}, answering as {@code type} says. */
    <T> CompletionStage<T> eval(String script, ScriptOutputType type, String[] keys, String... args) {
        return call(commands -> commands.eval(script, type, keys, args));
    }

    /** Runs {@code command} if Redis may be called now; fails the stage otherwise. */
    <T> CompletionStage<T> call(Function<RedisAsyncCommands<String, String>, RedisFuture<T>> command) {
        StatefulRedisConnection<String, String> connection = link.commands();
        long permit = breaker.acquire();
        if (permit == CircuitBreaker.NOT_PERMITTED) {
            return CompletableFuture.failedFuture(breaker.currentRejection().exception());
        }
        if (connection == null || !connection.isOpen()) {
            breaker.onOutcome(permit, Outcome.CONNECTION_ERROR, -1, RetryAfter.NONE);
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        }
        RedisFuture<T> pending;
        try {
            pending = command.apply(connection.async());
        } catch (RuntimeException rejected) {
            breaker.onOutcome(permit, Outcome.CONNECTION_ERROR, -1, RetryAfter.NONE);
            return CompletableFuture.failedFuture(rejected);
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
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
