package io.agentfuse.agent.permission;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentfuse.core.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PermissionBreakerConcurrencyTest {

    @Test
    void concurrentDenialsAreAllCountedAndOpenTheBreakerExactlyOnce() throws Exception {
        // Given a breaker that many threads report to at once
        int threads = 8;
        int denialsPerThread = 50;
        PermissionBreaker breaker = PermissionBreaker.builder()
                .config(PermissionConfig.builder().maxTotalDenials(10_000).build())
                .clock(new ManualClock())
                .build();
        List<PermissionEvent> events = new CopyOnWriteArrayList<>();
        breaker.addListener(events::add);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < denialsPerThread; i++) {
                        breaker.recordDenied(ToolCall.of("Bash"));
                        breaker.decide(ToolCall.of("Read"));
                    }
                    return null;
                }));
            }

            // When they all deny at the same time
            start.countDown();
            for (Future<?> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        // Then no denial is lost and exactly one transition opened the breaker
        assertThat(breaker.snapshot().totalDenials()).isEqualTo(threads * denialsPerThread);
        assertThat(events).singleElement().extracting(PermissionEvent::to).isEqualTo(PermissionState.OPEN);
    }
}
