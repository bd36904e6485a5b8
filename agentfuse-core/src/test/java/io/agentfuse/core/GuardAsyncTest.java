package io.agentfuse.core;

import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitOpenException;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.Unstamped;
import io.agentfuse.core.bulkhead.Bulkhead;
import io.agentfuse.core.retry.RetryPolicy;

import io.agentfuse.core.event.CircuitBreakerListener;
import io.agentfuse.core.event.RetryListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardAsyncTest {

    private final ManualClock clock = new ManualClock();
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aThousandConcurrentCallsOnTwoThreadsCompleteWithoutBlockingEitherThread() throws Exception {
        // Given a guard with retry, breaker, bulkhead and timeout, and calls whose answers the test controls
        int calls = 1_000;
        Bulkhead bulkhead = Bulkhead.of("model", calls);
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutive5xx(calls)).build(), clock);
        Guard guard = Guard.builder("model")
                .retry(RetryPolicy.builder().maxAttempts(2).initialDelay(Duration.ofSeconds(1)).build())
                .circuitBreaker(breaker).bulkhead(bulkhead).timeout(Duration.ofSeconds(60))
                .manualClock(clock).build();
        Map<Integer, Queue<CompletableFuture<String>>> attempts = new ConcurrentHashMap<>();
        List<CompletableFuture<String>> results = new CopyOnWriteArrayList<>();
        for (int id = 0; id < calls; id++) {
            attempts.put(id, new ConcurrentLinkedQueue<>());
        }

        // When both pool threads start all the calls
        CountDownLatch started = new CountDownLatch(calls);
        for (int id = 0; id < calls; id++) {
            int call = id;
            pool.execute(() -> {
                results.add(guard.executeAsync(() -> {
                    CompletableFuture<String> attempt = new CompletableFuture<>();
                    attempts.get(call).add(attempt);
                    return attempt;
                }));
                started.countDown();
            });
        }

        // Then every task returned before any call was answered: no thread waited on a call
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(results).hasSize(calls).noneMatch(CompletableFuture::isDone);
        assertThat(bulkhead.inFlight()).isEqualTo(calls);

        // When the pool answers: odd calls succeed, even calls fail with 503 and are retried on the scheduler
        answer(attempts, id -> true, id -> id % 2 == 0 ? new HttpStatusException(503) : null);
        assertThat(results.stream().filter(CompletableFuture::isDone).count()).isEqualTo(calls / 2);
        assertThat(clock.pendingTasks()).as("one retry waiting per failed call").isEqualTo(calls / 2);
        clock.advance(Duration.ofSeconds(1));
        answer(attempts, id -> id % 2 == 0, id -> null);

        // Then all 1000 complete with their answers, and nothing is left held or scheduled
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertThat(results).allSatisfy(result -> assertThat(result.join()).startsWith("answer "));
        assertThat(attempts.values().stream().mapToInt(Queue::size).sum()).isZero();
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(clock.pendingTasks()).isZero();
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    /**
     * Answers, from the pool's threads, the open attempt of every call that {@code which} selects:
     * with the error that {@code failure} makes for it, or with a value if that is null.
     */
    private void answer(Map<Integer, Queue<CompletableFuture<String>>> attempts, IntPredicate which,
                        IntFunction<RuntimeException> failure) throws InterruptedException {
        List<Integer> selected = attempts.keySet().stream().filter(which::test).toList();
        CountDownLatch answered = new CountDownLatch(selected.size());
        AtomicInteger missing = new AtomicInteger();
        for (int call : selected) {
            pool.execute(() -> {
                CompletableFuture<String> attempt = attempts.get(call).poll();
                RuntimeException error = failure.apply(call);
                if (attempt == null) {
                    missing.incrementAndGet();
                } else if (error != null) {
                    attempt.completeExceptionally(error);
                } else {
                    attempt.complete("answer " + call);
                }
                answered.countDown();
            });
        }
        assertThat(answered.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(missing).as("every selected call had an attempt in flight").hasValue(0);
    }

    @Test
    void aCallThatSucceedsAfterARetryCompletesWithItsValue() {
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).manualClock(clock).build();
        AtomicInteger attempt = new AtomicInteger();

        CompletableFuture<String> result = guard.executeAsync(() -> attempt.incrementAndGet() == 1
                ? CompletableFuture.failedFuture(new HttpStatusException(529))
                : CompletableFuture.completedFuture("second try"));
        clock.advance(Duration.ofSeconds(2));

        assertThat(result).isCompletedWithValue("second try");
        assertThat(attempt).hasValue(2);
    }

    @Test
    void aCallThatThrowsInsteadOfReturningAStageIsAFailedAttempt() {
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).manualClock(clock).build();
        AtomicInteger attempt = new AtomicInteger();

        CompletableFuture<String> result = guard.executeAsync(() -> {
            if (attempt.incrementAndGet() == 1) {
                throw new HttpStatusException(500);
            }
            return CompletableFuture.completedFuture("second try");
        });
        clock.advance(Duration.ofSeconds(2));

        assertThat(result).isCompletedWithValue("second try");
    }

    @Test
    void anOpenBreakerRejectsAtOnceWithoutCalling() {
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.defaults(), clock);
        breaker.forceOpen("maintenance");
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).circuitBreaker(breaker).manualClock(clock).build();
        AtomicInteger calls = new AtomicInteger();

        CompletableFuture<String> result = guard.executeAsync(() -> {
            calls.incrementAndGet();
            return CompletableFuture.completedFuture("never");
        });

        assertThatThrownBy(result::join).cause().isInstanceOf(CircuitOpenException.class);
        assertThat(calls).hasValue(0);
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void cancellingTheResultCancelsTheAttemptInFlight() {
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).manualClock(clock).build();
        CompletableFuture<String> attempt = new CompletableFuture<>();

        guard.executeAsync(() -> attempt).cancel(true);

        assertThat(attempt).isCancelled();
    }

    @Test
    void cancellingTheResultCancelsTheAttemptInFlightBehindATimeout() {
        Guard guard = Guard.builder("model").timeout(Duration.ofSeconds(30)).manualClock(clock).build();
        CompletableFuture<String> attempt = new CompletableFuture<>();

        guard.executeAsync(() -> attempt).cancel(true);

        assertThat(attempt).isCancelled();
        assertThat(clock.pendingTasks()).as("the timeout timer is stopped too").isZero();
    }

    @Test
    void cancellingDuringABackoffCancelsThePendingRetry() {
        Guard guard = Guard.builder("model").retry(RetryPolicy.defaults()).manualClock(clock).build();
        AttemptLog log = new AttemptLog(clock);
        CompletableFuture<String> result = guard.executeAsync(log.failingAsyncWith(attempt -> new HttpStatusException(503)));

        result.cancel(true);
        clock.advance(Duration.ofMinutes(1));

        assertThat(log.millis()).containsExactly(0L);
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void aCallerCancellationIsNotCountedAgainstTheBreaker() {
        // Given a breaker that opens on a single failure
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).build(), clock);
        Guard guard = Guard.builder("model").circuitBreaker(breaker).manualClock(clock).build();
        List<Outcome> recorded = new ArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onCallRecorded(CircuitBreaker source, Outcome outcome, long durationNanos) {
                recorded.add(outcome);
            }
        });

        // When the caller gives up on a call still in flight (a client that disconnected)
        guard.executeAsync(CompletableFuture::new).cancel(true);

        // Then the callee is not blamed: the breaker stays closed and records nothing
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(recorded).isEmpty();
    }

    @Test
    void aCancelledHalfOpenProbeGivesItsPermitBack() {
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(1)).build(), clock);
        Guard guard = Guard.builder("model").circuitBreaker(breaker).manualClock(clock).build();
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 0);
        clock.advance(Duration.ofMinutes(1));

        guard.executeAsync(CompletableFuture::new).cancel(true);
        CompletableFuture<String> probe = guard.executeAsync(() -> CompletableFuture.completedFuture("probe"));

        assertThat(probe).isCompletedWithValue("probe");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void retryEventsNameTheAttemptTheDelayAndTheCause() {
        List<String> events = new CopyOnWriteArrayList<>();
        Guard guard = Guard.builder("model").retry(RetryPolicy.builder().maxAttempts(3).build()).manualClock(clock)
                .retryListener(new RetryListener() {
                    @Override
                    public void onRetryScheduled(String name, int nextAttempt, long delayNanos, Throwable cause) {
                        events.add(name + " scheduled " + nextAttempt + " in " + delayNanos / 1_000_000 + " ms after " + cause.getMessage());
                    }

                    @Override
                    public void onRetriesExhausted(String name, int attempts, Throwable last) {
                        events.add(name + " exhausted after " + attempts + ": " + last.getMessage());
                    }
                })
                .build();
        AttemptLog log = new AttemptLog(clock);

        guard.executeAsync(log.failingAsyncWith(attempt -> HttpStatusException.builder(500).body("attempt " + attempt).build()));
        clock.advance(Duration.ofSeconds(6));

        assertThat(events).containsExactly(
                "model scheduled 2 in 2000 ms after HTTP 500: attempt 1",
                "model scheduled 3 in 4000 ms after HTTP 500: attempt 2",
                "model exhausted after 3: HTTP 500: attempt 3");
    }

    @Test
    void aTokenCounterThatThrowsFailsTheResultInsteadOfLeavingItPending() {
        CircuitBreaker breaker = CircuitBreaker.of("model", CircuitBreakerConfig.defaults(), clock);
        IllegalStateException noUsage = new IllegalStateException("the answer has no usage block");
        Guard guard = Guard.builder("model").circuitBreaker(breaker).manualClock(clock)
                .tokens(answer -> {
                    throw noUsage;
                })
                .build();

        CompletableFuture<String> result = guard.executeAsync(() -> CompletableFuture.completedFuture("answer"));

        assertThat(result).isCompletedExceptionally();
        assertThatThrownBy(result::join).hasCause(noUsage);
    }
}
