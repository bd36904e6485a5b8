package io.agentfuse.core.bulkhead;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.SpinWait;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A bulkhead with a {@code maxWait}: a caller that finds it full waits for the first place that frees,
 * blocked or asynchronously, and is rejected when the wait passes or it is interrupted.
 */
class BulkheadWaitTest {

    private final ManualClock clock = new ManualClock();

    @RegisterExtension
    final CallerThreads threads = new CallerThreads();

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
}
