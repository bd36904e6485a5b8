package io.agentfuse.core.contract;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.breaker.CallResult;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.retry.RetryPolicy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * docs/design.md §3, from outside the package: an inner breaker's rejection is not a failure of an outer
 * one, also when it arrives wrapped the way futures wrap it ({@code join()}, {@code get()}), for
 * every call method of the breaker — else one open tool trips its server's breaker and takes the
 * sibling tools down.
 */
class BreakerCallContractTest {

    private final ManualClock clock = new ManualClock();
    private final CircuitBreaker server = CircuitBreaker.of("mcp:db", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(1)).build(), clock);
    private final CircuitBreaker tool = CircuitBreaker.of("tool:db/query", CircuitBreakerConfig.builder()
            .trigger(Trigger.consecutiveErrors(1)).build(), clock);
    private final Guard toolGuard = Guard.builder("tool:db/query").retry(RetryPolicy.none()).circuitBreaker(tool)
            .manualClock(clock).build();

    @BeforeEach
    void openTheTool() {
        tool.forceOpen("the tool is down");
    }

    private String joined() {
        return toolGuard.executeAsync(() -> CompletableFuture.completedFuture("rows")).join();
    }

    private String got() throws ExecutionException, InterruptedException {
        return toolGuard.executeAsync(() -> CompletableFuture.completedFuture("rows")).get();
    }

    @Test
    void executeSupplierDoesNotCountAnInnerRejectionThrownByJoin() {
        for (int i = 0; i < 3; i++) {
            Throwable thrown = catchThrowable(() -> server.executeSupplier(this::joined));
            assertThat(thrown).isInstanceOf(CompletionException.class).hasCauseInstanceOf(CircuitOpenException.class);
        }

        assertServerUntouched();
    }

    @Test
    void executeCallableDoesNotCountAnInnerRejectionThrownByGet() {
        for (int i = 0; i < 3; i++) {
            Throwable thrown = catchThrowable(() -> server.executeCallable(this::got));
            assertThat(thrown).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(CircuitOpenException.class);
        }

        assertServerUntouched();
    }

    @Test
    void executeWithAFallbackDoesNotCountAnInnerRejection() {
        for (int i = 0; i < 3; i++) {
            catchThrowable(() -> server.execute(this::joined, rejection -> "open"));
        }

        assertServerUntouched();
    }

    @Test
    void tryExecuteDoesNotCountAnInnerRejection() {
        for (int i = 0; i < 3; i++) {
            catchThrowable(() -> server.<String>tryExecute(this::joined));
        }

        assertServerUntouched();
        CallResult<String> answered = server.tryExecute(() -> "ok");
        assertThat(answered.isRejected()).isFalse();
    }

    @Test
    void aRealFailureWrappedTheSameWayStillCounts() {
        Throwable thrown = catchThrowable(() -> server.executeSupplier(() ->
                CompletableFuture.<String>failedFuture(new IllegalStateException("db down")).join()));

        assertThat(thrown).isInstanceOf(CompletionException.class);
        assertThat(server.state()).isEqualTo(CircuitState.OPEN);
    }

    private void assertServerUntouched() {
        assertThat(server.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(server.snapshot().counts()).containsEntry("consecutiveErrors", 0L);
        long permit = server.acquire();
        assertThat(permit).as("a probe of the server is still possible").isNotEqualTo(CircuitBreaker.NOT_PERMITTED);
        server.onOutcome(permit, Outcome.SUCCESS, 1, -1);
    }
}
