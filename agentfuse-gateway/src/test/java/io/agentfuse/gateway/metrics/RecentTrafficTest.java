package io.agentfuse.gateway.metrics;

import io.agentfuse.core.Clock;
import io.agentfuse.core.ManualClock;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard's last five minutes, second by second, on a clock the test moves. */
class RecentTrafficTest {

    private static final long MS = 1_000_000L;

    private final ManualClock clock = new ManualClock();
    private final RecentTraffic traffic = new RecentTraffic(clock);

    private TrafficSecond last() {
        List<TrafficSecond> seconds = traffic.lastSeconds();
        return seconds.get(seconds.size() - 1);
    }

    @Test
    void showsFiveMinutesOfCompleteSecondsOldestFirstAndLeavesTheCurrentSecondOut() {
        traffic.record(200, 5 * MS);

        List<TrafficSecond> seconds = traffic.lastSeconds();

        long now = ManualClock.DEFAULT_EPOCH_MILLIS / 1000;
        assertThat(seconds).hasSize(RecentTraffic.HORIZON_SECONDS);
        assertThat(seconds.get(0).epochSecond()).isEqualTo(now - 300);
        assertThat(seconds.get(299).epochSecond()).isEqualTo(now - 1);
        assertThat(seconds).allSatisfy(second -> assertThat(second.requests()).isZero());
    }

    @Test
    void aSecondCountsItsRequestsErrorsAndLatenciesOnceItIsOver() {
        for (int i = 1; i <= 20; i++) {
            traffic.record(i <= 17 ? 200 : 502, i * MS);
        }
        traffic.record(429, 1 * MS);
        traffic.record(404, 1 * MS);

        clock.advance(Duration.ofSeconds(1));

        TrafficSecond second = last();
        assertThat(second.requests()).isEqualTo(22);
        assertThat(second.errors()).as("502 three times and 429 once; 404 is the caller's error").isEqualTo(4);
        // 22 samples: the median is the 11th (9 ms), the 95th percentile the 21st (19 ms); a bucket's
        // bound is at most 25 % above its samples, and never above the slowest request.
        assertThat(second.p50Millis()).isBetween(9.0, 9.0 * 1.25);
        assertThat(second.p95Millis()).isBetween(19.0, 20.0);
        assertThat(second.maxMillis()).isEqualTo(20.0);
    }

    @Test
    void requestsLandInTheSecondTheyWereAnsweredIn() {
        traffic.record(200, MS);
        clock.advance(Duration.ofMillis(999));
        traffic.record(200, MS);
        clock.advance(Duration.ofMillis(1));
        traffic.record(500, MS);
        traffic.record(500, MS);
        traffic.record(500, MS);
        clock.advance(Duration.ofSeconds(1));

        List<TrafficSecond> seconds = traffic.lastSeconds();

        assertThat(seconds.get(298).requests()).isEqualTo(2);
        assertThat(seconds.get(298).errors()).isZero();
        assertThat(seconds.get(299).requests()).isEqualTo(3);
        assertThat(seconds.get(299).errors()).isEqualTo(3);
    }

    @Test
    void aSecondLeavesTheWindowAfterFiveMinutes() {
        traffic.record(200, MS);

        clock.advance(Duration.ofSeconds(300));
        assertThat(traffic.lastSeconds().get(0).requests()).as("the oldest second shown, 300 s ago").isEqualTo(1);

        clock.advance(Duration.ofSeconds(1));
        assertThat(traffic.lastSeconds()).allSatisfy(second -> assertThat(second.requests()).isZero());
    }

    @Test
    void aReusedSlotForgetsTheSecondItHeldBefore() {
        for (int i = 0; i < 5; i++) {
            traffic.record(500, 900 * MS);
        }
        // The ring has 302 slots: 302 s later the same slot counts a new second.
        clock.advance(Duration.ofSeconds(302));
        traffic.record(200, 2 * MS);
        clock.advance(Duration.ofSeconds(1));

        TrafficSecond second = last();
        assertThat(second.requests()).isEqualTo(1);
        assertThat(second.errors()).isZero();
        assertThat(second.maxMillis()).isEqualTo(2.0);
        assertThat(second.p95Millis()).isEqualTo(2.0);
    }

    @Test
    void aLateWriterDoesNotOverwriteANewerSecond() {
        AtomicLong wallMillis = new AtomicLong(ManualClock.DEFAULT_EPOCH_MILLIS + 302_000);
        RecentTraffic stepped = new RecentTraffic(new Clock() {
            @Override
            public long nanoTime() {
                return wallMillis.get() * MS;
            }

            @Override
            public long epochMillis() {
                return wallMillis.get();
            }
        });
        stepped.record(200, MS);

        // A writer whose reading is a whole ring (302 s) behind lands in the same slot: it is dropped.
        wallMillis.addAndGet(-302_000);
        stepped.record(500, MS);
        wallMillis.addAndGet(303_000);

        TrafficSecond second = stepped.lastSeconds().get(299);
        assertThat(second.requests()).isEqualTo(1);
        assertThat(second.errors()).isZero();
    }

    @Test
    void aSecondWithoutRequestsHasNoLatency() {
        clock.advance(Duration.ofSeconds(1));

        assertThat(last()).isEqualTo(TrafficSecond.empty(ManualClock.DEFAULT_EPOCH_MILLIS / 1000));
    }

    @Test
    void manyThreadsRecordingAtOnceLoseNoRequest() throws Exception {
        int threads = 8;
        int perThread = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        traffic.record(i % 10 == 0 ? 503 : 200, (thread + 1) * MS);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> each : done) {
                each.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        clock.advance(Duration.ofSeconds(1));

        TrafficSecond second = last();
        assertThat(second.requests()).isEqualTo((long) threads * perThread);
        assertThat(second.errors()).isEqualTo((long) threads * perThread / 10);
        assertThat(second.maxMillis()).isEqualTo(8.0);
    }

    @Test
    void threadsCrossingIntoANewSecondTogetherClearTheOldOneOnce() throws Exception {
        traffic.record(200, MS);
        clock.advance(Duration.ofSeconds(302));
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 1_000; i++) {
                        traffic.record(200, MS);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> each : done) {
                each.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        clock.advance(Duration.ofSeconds(1));

        assertThat(last().requests()).as("the old second's request is gone, none of the new ones").isEqualTo(8_000);
    }

    @Test
    void recordingARequestAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20_000; i++) {
            traffic.record(200, i * 1_000L);
        }

        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            traffic.record(i % 7 == 0 ? 503 : 200, i * 1_000L);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(allocated).as("bytes allocated by 100 000 requests").isLessThan(1_024);
    }

    @Test
    void statusesThatCountAsErrors() {
        assertThat(RecentTraffic.isError(500)).isTrue();
        assertThat(RecentTraffic.isError(503)).isTrue();
        assertThat(RecentTraffic.isError(429)).isTrue();
        assertThat(RecentTraffic.isError(200)).isFalse();
        assertThat(RecentTraffic.isError(400)).isFalse();
        assertThat(RecentTraffic.isError(413)).isFalse();
    }

    @Test
    void aSecondCountsTheFailedProviderCallsAndFallbacksBehindItsAnswers() {
        traffic.record(200, MS);
        traffic.upstreamFailure();
        traffic.upstreamFailure();
        traffic.fallback();

        clock.advance(Duration.ofSeconds(1));

        TrafficSecond second = last();
        assertThat(second.requests()).isEqualTo(1);
        assertThat(second.errors()).as("the caller got its answer").isZero();
        assertThat(second.upstreamFailures()).isEqualTo(2);
        assertThat(second.fallbacks()).isEqualTo(1);
    }
}
