package io.agentfuse.core.contract;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@link Guard} Javadoc's promise, from outside the package: {@code executeAsync} completes
 * with the result or the last error "exactly as execute returns or throws" — the callee's own
 * exception, not the cause inside it.
 */
class GuardEndsAlikeContractTest {

    private final ManualClock clock = new ManualClock();
    private final UncheckedIOException refused = new UncheckedIOException(new ConnectException("Connection refused"));

    private Guard guard(RetryPolicy retry) {
        return Guard.builder("model:a").retry(retry).circuitBreaker(CircuitBreaker.of("model:a",
                CircuitBreakerConfig.builder().trigger(Trigger.consecutiveErrors(2)).build(), clock)).manualClock(clock).build();
    }

    @Test
    void givenTheCalleeThrowsAnUncheckedIoExceptionBothPathsEndWithThatSameException() {
        Throwable sync = catchThrowable(() -> guard(RetryPolicy.none()).execute(() -> {
            throw refused;
        }));
        Throwable async = catchThrowable(() -> guard(RetryPolicy.none())
                .executeAsync(() -> CompletableFuture.<String>failedFuture(refused)).join());

        assertThat(sync).isSameAs(refused);
        assertThat(async).isInstanceOf(CompletionException.class).cause().isSameAs(refused);
    }

    @Test
    void givenTheBreakerRefusesTheRetryBothPathsEndWithTheCalleesException() {
        RetryPolicy retry = RetryPolicy.builder().maxAttempts(4).initialDelay(Duration.ofSeconds(1)).build();

        Throwable sync = catchThrowable(() -> guard(retry).execute(() -> {
            throw refused;
        }));
        var pending = guard(retry).executeAsync(() -> CompletableFuture.<String>failedFuture(refused));
        while (!pending.isDone() && clock.pendingTasks() > 0) {
            clock.advance(Duration.ofSeconds(1));
            clock.runDueTasks();
        }
        Throwable async = catchThrowable(pending::join);

        assertThat(sync).isSameAs(refused);
        assertThat(async).isInstanceOf(CompletionException.class).cause().isSameAs(refused);
    }
}
