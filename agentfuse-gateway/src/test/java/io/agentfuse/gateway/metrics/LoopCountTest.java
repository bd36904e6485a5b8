package io.agentfuse.gateway.metrics;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class LoopCountTest {

    @Test
    void countsEveryIncrementOfManyThreadsAtOnce() throws InterruptedException {
        LoopCount count = new LoopCount();
        int threads = 40; // more than the cells: some threads share one
        int each = 10_000;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        count.increment();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
            thread.start();
            started.add(thread);
        }

        start.countDown();
        done.await();

        assertThat(count.sum()).isEqualTo((long) threads * each);
    }

    @Test
    void startsAtZero() {
        assertThat(new LoopCount().sum()).isZero();
    }
}
