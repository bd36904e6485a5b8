package io.agentfuse.gateway.server;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BodyAllowanceTest {

    @Test
    void reservesWhileThereIsRoomAndRefusesWhatWouldGoBeyond() {
        BodyAllowance allowance = new BodyAllowance(100);

        BodyAllowance.Reservation sixty = allowance.reserve(60);
        BodyAllowance.Reservation fortyOne = allowance.reserve(41);
        BodyAllowance.Reservation forty = allowance.reserve(40);

        assertThat(sixty).isNotNull();
        assertThat(fortyOne).isNull();
        assertThat(forty).isNotNull();
        assertThat(allowance.reserved()).isEqualTo(100);
        assertThat(allowance.reserve(1)).isNull();
    }

    @Test
    void aReleaseGivesItsBytesBackOnceHoweverOftenItIsCalled() {
        BodyAllowance allowance = new BodyAllowance(100);
        BodyAllowance.Reservation first = allowance.reserve(70);

        first.release();
        first.release();

        assertThat(allowance.reserved()).isZero();
        assertThat(allowance.reserve(100)).isNotNull();
    }

    @Test
    void theDefaultIsAnEighthOfTheHeapWithinItsBounds() {
        long limit = Math.max(8L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8));
        BodyAllowance allowance = BodyAllowance.ofHeap();

        assertThat(allowance.reserve(limit)).isNotNull();
        assertThat(allowance.reserve(1)).isNull();
    }

    @Test
    void aNegativeLimitIsRefusedWithItsValue() {
        assertThatThrownBy(() -> new BodyAllowance(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be >= 0, but was -1");
    }

    @Test
    void manyThreadsReservingAtOnceNeverHoldMoreThanTheLimit() throws Exception {
        // Given an allowance of 1 000 bytes and eight threads started together, each reserving
        // 7 bytes and releasing them, 10 000 times
        BodyAllowance allowance = new BodyAllowance(1_000);
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong mostSeen = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> granted = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            granted.add(pool.submit(() -> {
                start.await();
                int grants = 0;
                List<BodyAllowance.Reservation> held = new ArrayList<>();
                for (int i = 0; i < 10_000; i++) {
                    BodyAllowance.Reservation reservation = allowance.reserve(7);
                    mostSeen.accumulateAndGet(allowance.reserved(), Math::max);
                    if (reservation != null) {
                        grants++;
                        held.add(reservation);
                    }
                    if (held.size() > 20) {
                        held.remove(0).release();
                    }
                }
                held.forEach(BodyAllowance.Reservation::release);
                return grants;
            }));
        }

        // When they run
        start.countDown();
        int total = 0;
        for (Future<Integer> grants : granted) {
            total += grants.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();

        // Then at no time was more than the limit set aside (together they would hold up to
        // 8 × 21 × 7 bytes), reservations were granted, and everything came back
        assertThat(mostSeen.get()).isLessThanOrEqualTo(1_000);
        assertThat(total).isPositive();
        assertThat(allowance.reserved()).isZero();
    }
}
