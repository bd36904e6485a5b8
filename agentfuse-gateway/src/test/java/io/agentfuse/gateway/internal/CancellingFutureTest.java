package io.agentfuse.gateway.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class CancellingFutureTest {

    private final AtomicInteger stops = new AtomicInteger();
    private final CancellingFuture<String> future = new CancellingFuture<>(stops::incrementAndGet);

    @Test
    void cancellingStopsTheWorkOnce() {
        assertThat(future.cancel(true)).isTrue();
        assertThat(future.cancel(true)).as("as the JDK answers: it is cancelled").isTrue();

        assertThat(future.isCancelled()).isTrue();
        assertThat(future).isCancelled();
        assertThat(stops).hasValue(1);
    }

    @Test
    void aCancelAfterTheAnswerStopsNothing() {
        future.complete("answer");

        assertThat(future.cancel(true)).isFalse();
        assertThat(stops).hasValue(0);
        assertThat(future.join()).isEqualTo("answer");
    }

    @Test
    void workThatEndedCancelledIsNotStoppedByALaterCancel() {
        future.completeExceptionally(new CancellationException("the call was cancelled by its own timeout"));

        assertThat(future.cancel(true)).as("as the JDK answers: it is cancelled").isTrue();
        assertThat(stops).as("the JDK's cancel() answered true here too, so an override keyed on it stopped the work").hasValue(0);
    }

    @Test
    void manyThreadsCancellingAtOnceStopTheWorkOnce() throws InterruptedException {
        int threads = 16;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(threads);
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    future.cancel(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            });
            thread.start();
            started.add(thread);
        }

        start.countDown();
        finished.await();
        for (Thread thread : started) {
            thread.join();
        }

        assertThat(stops).hasValue(1);
        assertThat(future).isCancelled();
    }
}
