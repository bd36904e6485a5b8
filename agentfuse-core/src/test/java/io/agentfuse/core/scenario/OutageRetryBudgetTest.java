package io.agentfuse.core.scenario;

import io.agentfuse.core.AttemptLog;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.retry.RetryBudget;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.event.RetryListener;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A fleet's worth of calls during an outage: the retry budget keeps the extra load to its share,
 * where unbudgeted retries would quadruple it.
 */
class OutageRetryBudgetTest {

    private static final int CALLS = 1_000;
    private static final Duration TTL = Duration.ofSeconds(10);

    private final ManualClock clock = new ManualClock();
    private final AttemptLog log = new AttemptLog(clock);

    @Test
    void withoutABudgetAnOutageTriplesTheCallsWithRetries() {
        int retries = retriesDuringOutage(null);

        assertThat(retries).isEqualTo(3 * CALLS);
    }

    @Test
    void aTwentyPercentBudgetKeepsRetriesToAFifthOfTheCalls() {
        int retries = retriesDuringOutage(RetryBudget.of(0.2, 0, TTL, clock));

        assertThat(retries).isLessThanOrEqualTo(CALLS / 5)
                .as("the budget is used, not just refused").isGreaterThanOrEqualTo(CALLS / 5 - 1);
    }

    @Test
    void theFloorAddsAtMostMinPerSecondTimesTheTtl() {
        int retries = retriesDuringOutage(RetryBudget.of(0.2, 2, TTL, clock));

        assertThat(retries).isLessThanOrEqualTo(CALLS / 5 + 2 * 10)
                .isGreaterThan(CALLS / 5);
    }

    @Test
    void theBudgetBoundsAsynchronousRetriesToo() {
        Guard guard = Guard.builder("model")
                .retry(RetryPolicy.builder().initialDelay(Duration.ofMillis(1)).budget(RetryBudget.of(0.2, 0, TTL, clock)).build())
                .manualClock(clock)
                .build();
        List<CompletableFuture<String>> results = new ArrayList<>();

        for (int call = 0; call < CALLS; call++) {
            results.add(guard.executeAsync(log.failingAsyncWith(attempt -> new HttpStatusException(503))));
        }
        clock.advance(Duration.ofSeconds(1));

        assertThat(results).allMatch(CompletableFuture::isCompletedExceptionally);
        assertThat(log.count() - CALLS).isLessThanOrEqualTo(CALLS / 5);
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void callsTurnedAwayByAnOpenBreakerDoNotRaiseTheRetryAllowance() {
        // Given a budget shared by a guard whose breaker is open and one that still calls
        RetryBudget budget = RetryBudget.of(0.2, 0, TTL, clock);
        CircuitBreaker open = CircuitBreaker.of("model:down", CircuitBreakerConfig.defaults(), clock);
        open.forceOpen("outage");
        Guard rejected = Guard.builder("model:down").circuitBreaker(open)
                .retry(RetryPolicy.builder().budget(budget).build()).manualClock(clock).build();

        // When a thousand calls are turned away without being made
        for (int call = 0; call < CALLS; call++) {
            catchThrowable(() -> rejected.execute(() -> "never called"));
        }

        // Then they bought no retries
        assertThat(budget.available()).isZero();
        assertThat(budget.tryWithdraw()).isFalse();
    }

    @Test
    void everyRetryTheBudgetRefusesIsReportedToTheListenerOnce() {
        AtomicInteger scheduled = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Guard guard = Guard.builder("model")
                .retry(RetryPolicy.builder().maxAttempts(2).initialDelay(Duration.ZERO).budget(RetryBudget.of(0.2, 0, TTL, clock)).build())
                .retryListener(new RetryListener() {
                    @Override
                    public void onRetryScheduled(String name, int nextAttempt, long delayNanos, Throwable cause) {
                        scheduled.incrementAndGet();
                    }

                    @Override
                    public void onRetryRefusedByBudget(String name, int attempts, Throwable last) {
                        assertThat(name).isEqualTo("model");
                        assertThat(attempts).isEqualTo(1);
                        refused.incrementAndGet();
                    }
                })
                .manualClock(clock)
                .build();

        for (int call = 0; call < 100; call++) {
            catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(503))));
        }

        assertThat(scheduled.get()).as("retries made").isBetween(19, 20);
        assertThat(scheduled.get() + refused.get()).as("every call wanted one retry").isEqualTo(100);
    }

    /**
     * Runs {@link #CALLS} guarded calls, 5 ms apart (all within one ttl), each failing with 503
     * on every attempt; returns how many attempts were retries.
     */
    private int retriesDuringOutage(RetryBudget budget) {
        Guard guard = Guard.builder("model")
                .retry(RetryPolicy.builder().maxAttempts(4).initialDelay(Duration.ZERO).budget(budget).build())
                .manualClock(clock)
                .build();
        for (int call = 0; call < CALLS; call++) {
            Throwable thrown = catchThrowable(() -> guard.execute(log.failingWith(attempt -> new HttpStatusException(503))));
            assertThat(thrown).isSameAs(log.lastThrown());
            clock.advanceMillis(5);
        }
        return log.count() - CALLS;
    }
}
