package io.agentfuse.core.bulkhead;

import io.agentfuse.core.Guard;
import io.agentfuse.core.HttpStatusException;
import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Outcome;
import io.agentfuse.core.SpinWait;
import io.agentfuse.core.breaker.CircuitBreaker;
import io.agentfuse.core.breaker.CircuitBreakerConfig;
import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.core.breaker.Trigger;
import io.agentfuse.core.breaker.Unstamped;
import io.agentfuse.core.retry.RetryPolicy;
import io.agentfuse.core.timeout.CallTimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BulkheadTest {

    private final ManualClock clock = new ManualClock();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anUnpairedReleaseIsRefusedInsteadOfRaisingTheLimit() {
        // Given a bulkhead of 1 with nothing in flight
        Bulkhead bulkhead = Bulkhead.of("tools", 1);

        // When a release comes without an acquire, then it is refused and the limit stays 1
        assertThatThrownBy(bulkhead::release)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released more places than were taken");
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(bulkhead.tryAcquire()).isTrue();
        assertThat(bulkhead.tryAcquire()).isFalse();
    }

    @Test
    void admitsExactlyMaxConcurrentCallsFromManyThreadsAndRejectsTheRest() throws Exception {
        // Given a guard with a bulkhead of 3, and 20 threads calling at once through calls that hold on
        Bulkhead bulkhead = Bulkhead.of("subagents", 3);
        Guard guard = Guard.builder("subagents").bulkhead(bulkhead).manualClock(clock).build();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch attempted = new CountDownLatch(20);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicInteger admitted = new AtomicInteger();
        List<Future<Throwable>> outcomes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            outcomes.add(threads.submit(() -> {
                start.await();
                try {
                    guard.execute(() -> {
                        admitted.incrementAndGet();
                        attempted.countDown();
                        awaitQuietly(finish);
                        return "done";
                    });
                    return null;
                } catch (RuntimeException rejected) {
                    attempted.countDown();
                    return rejected;
                }
            }));
        }

        // When they all try
        start.countDown();
        assertThat(attempted.await(30, TimeUnit.SECONDS)).isTrue();

        // Then exactly 3 are in, and the 17 others were rejected with the bulkhead's exception
        assertThat(admitted).hasValue(3);
        assertThat(bulkhead.inFlight()).isEqualTo(3);
        finish.countDown();
        List<Throwable> rejections = new ArrayList<>();
        for (Future<Throwable> outcome : outcomes) {
            Throwable rejection = outcome.get(30, TimeUnit.SECONDS);
            if (rejection != null) {
                rejections.add(rejection);
            }
        }
        assertThat(rejections).hasSize(17).allSatisfy(rejection ->
                assertThat(rejection).isInstanceOf(BulkheadFullException.class).isSameAs(bulkhead.rejection()));
        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void neverHasMoreThanMaxConcurrentInFlightUnderContention() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("tools", 4);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            workers.add(threads.submit(() -> {
                start.await();
                for (int i = 0; i < 20_000; i++) {
                    if (bulkhead.tryAcquire()) {
                        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        admitted.incrementAndGet();
                        inside.decrementAndGet();
                        bulkhead.release();
                    }
                }
                return null;
            }));
        }

        start.countDown();
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }

        assertThat(mostInside.get()).isBetween(1, 4);
        assertThat(admitted.get()).isPositive();
        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void theRejectionNamesTheBulkheadAndItsLimit() {
        Bulkhead bulkhead = Bulkhead.of("subagents", 1);
        bulkhead.tryAcquire();

        assertThatThrownBy(bulkhead::acquire)
                .isInstanceOf(BulkheadFullException.class)
                .hasMessage("bulkhead 'subagents' is full: 1 calls in flight")
                .satisfies(e -> assertThat(((BulkheadFullException) e).bulkhead()).isSameAs(bulkhead));
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallSucceeds() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).manualClock(clock).build();

        guard.execute(() -> "ok");

        assertThat(bulkhead.inFlight()).isZero();
        assertThat(guard.execute(() -> "again")).isEqualTo("again");
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallThrows() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).manualClock(clock).build();

        assertThatThrownBy(() -> guard.execute(() -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");

        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallTimesOut() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).timeout(Duration.ofSeconds(1)).manualClock(clock).build();

        assertThatThrownBy(() -> guard.execute(() -> {
            clock.advance(Duration.ofSeconds(2));
            return "late";
        })).isInstanceOf(CallTimeoutException.class);

        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void aGuardFreesThePlaceWhenTheCallerCancelsTheAsynchronousCall() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).manualClock(clock).build();
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletableFuture<String> result = guard.executeAsync(() -> never);
        assertThat(bulkhead.inFlight()).isEqualTo(1);

        result.cancel(true);

        assertThat(bulkhead.inFlight()).isZero();
        assertThat(never).isCancelled();
    }

    @Test
    void aGuardFreesThePlaceWhenTheAsynchronousCallTimesOut() {
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").bulkhead(bulkhead).timeout(Duration.ofSeconds(1)).manualClock(clock).build();
        CompletableFuture<String> result = guard.executeAsync(CompletableFuture::new);

        clock.advance(Duration.ofSeconds(1));

        assertThat(result).isCompletedExceptionally();
        assertThat(bulkhead.inFlight()).isZero();
    }

    @Test
    void aWaitingAsynchronousCallerGetsTheFirstPlaceThatFrees() {
        Bulkhead bulkhead = Bulkhead.of("b", 1, Duration.ofSeconds(5), clock);
        bulkhead.tryAcquire();
        CompletableFuture<Void> waiting = bulkhead.acquireAsync().toCompletableFuture();
        clock.advance(Duration.ofSeconds(4));
        assertThat(waiting).isNotDone();

        bulkhead.release();

        assertThat(waiting).isCompleted();
        assertThat(bulkhead.inFlight()).as("the place passed straight to the waiter").isEqualTo(1);
        assertThat(clock.pendingTasks()).as("its wait timer is cancelled").isZero();
    }

    @Test
    void aWaitingAsynchronousCallerIsRejectedAfterMaxWait() {
        Bulkhead bulkhead = Bulkhead.of("b", 1, Duration.ofSeconds(5), clock);
        bulkhead.tryAcquire();
        CompletableFuture<Void> waiting = bulkhead.acquireAsync().toCompletableFuture();

        clock.advanceMillis(4_999);
        assertThat(waiting).isNotDone();
        clock.advanceMillis(1);

        assertThat(waiting).isCompletedExceptionally();
        assertThatThrownBy(waiting::join).hasCause(bulkhead.rejection());
        bulkhead.release();
        assertThat(bulkhead.inFlight()).as("the expired waiter took no place").isZero();
    }

    @Test
    void aBlockedCallerContinuesWhenAPlaceFrees() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("b", 1, Duration.ofSeconds(5), clock);
        bulkhead.tryAcquire();
        Future<?> waiter = threads.submit(() -> {
            bulkhead.acquire();
            return null;
        });
        SpinWait.until(() -> clock.pendingTasks() == 1, "the caller waits for a place");

        bulkhead.release();

        waiter.get(30, TimeUnit.SECONDS);
        assertThat(bulkhead.inFlight()).isEqualTo(1);
    }

    @Test
    void aBlockedCallerIsRejectedWhenMaxWaitPasses() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("b", 1, Duration.ofSeconds(5), clock);
        bulkhead.tryAcquire();
        Future<Throwable> waiter = threads.submit(() -> {
            try {
                bulkhead.acquire();
                return null;
            } catch (BulkheadFullException full) {
                return full;
            }
        });
        SpinWait.until(() -> clock.pendingTasks() == 1, "the caller waits for a place");

        clock.advance(Duration.ofSeconds(5));

        assertThat(waiter.get(30, TimeUnit.SECONDS)).isSameAs(bulkhead.rejection());
        assertThat(bulkhead.inFlight()).isEqualTo(1);
    }

    @Test
    void anInterruptedWaiterDoesNotKeepThePlaceThatFreesLater() throws Exception {
        // Given a caller blocked waiting for the only place
        Bulkhead bulkhead = Bulkhead.of("b", 1, Duration.ofSeconds(5), clock);
        bulkhead.tryAcquire();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                bulkhead.acquire();
            } catch (RuntimeException e) {
                thrown.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        waiter.start();
        SpinWait.until(() -> clock.pendingTasks() == 1, "the caller waits for a place");

        // When it is interrupted, gives up, and only then the holder leaves
        waiter.interrupt();
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        bulkhead.release();

        // Then it was rejected with its interrupt flag kept, and the place is free for others
        assertThat(thrown.get()).isSameAs(bulkhead.rejection());
        assertThat(stillInterrupted).isTrue();
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(bulkhead.tryAcquire()).isTrue();
    }

    @Test
    void aFullBulkheadIsNotABreakerFailureAndIsNotRetried() {
        // Given a closed breaker that would open on a single error, behind a full bulkhead
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).build(), clock);
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").retry(RetryPolicy.defaults()).circuitBreaker(breaker).bulkhead(bulkhead)
                .manualClock(clock).build();
        bulkhead.tryAcquire();
        AtomicInteger calls = new AtomicInteger();
        var countsBefore = breaker.snapshot().counts();

        // When a call is rejected by the bulkhead
        assertThatThrownBy(() -> guard.execute(calls::incrementAndGet)).isSameAs(bulkhead.rejection());

        // Then nothing was called, retried or recorded
        assertThat(calls).hasValue(0);
        assertThat(clock.nanoTime()).isZero();
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.snapshot().counts()).isEqualTo(countsBefore);
    }

    @Test
    void aFullBulkheadGivesBackTheHalfOpenProbePermission() {
        // Given a half-open breaker with one probe permit, behind a full bulkhead
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(1)).build(), clock);
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").circuitBreaker(breaker).bulkhead(bulkhead).manualClock(clock).build();
        assertThatThrownBy(() -> guard.execute(() -> {
            throw new HttpStatusException(500);
        })).isInstanceOf(HttpStatusException.class);
        clock.advance(Duration.ofMinutes(1));
        bulkhead.tryAcquire();

        // When the probe is rejected by the bulkhead, and the place then frees
        assertThatThrownBy(() -> guard.execute(() -> "probe")).isSameAs(bulkhead.rejection());
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        bulkhead.release();

        // Then the permit was given back: the next call is the probe, and it closes the breaker
        assertThat(guard.execute(() -> "probe")).isEqualTo("probe");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void anAsynchronousFullBulkheadGivesBackTheBreakerPermission() {
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.builder()
                .trigger(Trigger.consecutiveErrors(1)).resetTimeout(Duration.ofMinutes(1)).build(), clock);
        Bulkhead bulkhead = Bulkhead.of("b", 1);
        Guard guard = Guard.builder("b").circuitBreaker(breaker).bulkhead(bulkhead).manualClock(clock).build();
        Unstamped.outcome(breaker, Outcome.SERVER_ERROR, 0);
        clock.advance(Duration.ofMinutes(1));
        bulkhead.tryAcquire();

        CompletableFuture<String> rejected = guard.executeAsync(() -> CompletableFuture.completedFuture("probe"));
        bulkhead.release();
        CompletableFuture<String> probe = guard.executeAsync(() -> CompletableFuture.completedFuture("probe"));

        assertThatThrownBy(rejected::join).hasCause(bulkhead.rejection());
        assertThat(probe).isCompletedWithValue("probe");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void rejectsInvalidSettingsNamingTheKeyAndValue() {
        assertThatThrownBy(() -> Bulkhead.of("b", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxConcurrent must be >= 1, but was 0");
        assertThatThrownBy(() -> Bulkhead.of("b", 1, Duration.ofSeconds(-1), clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxWait must not be negative");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the calls");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
