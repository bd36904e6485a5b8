package io.agentfuse.core.bulkhead;

import io.agentfuse.core.Guard;
import io.agentfuse.core.ManualClock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A bulkhead admits at most {@code maxConcurrent} calls at once, and rejects the rest at once, naming itself. */
class BulkheadAdmissionTest {

    private final ManualClock clock = new ManualClock();

    @RegisterExtension
    final CallerThreads threads = new CallerThreads();

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
