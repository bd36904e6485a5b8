package io.agentfuse.core.budget;

import io.agentfuse.core.ManualClock;
import io.agentfuse.core.Race;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Concurrent requests cannot overshoot together": whatever the order of reservations and
 * settlements, a window never holds more than its limit plus the largest single estimate, as long
 * as no call uses more than it reserved.
 */
class LedgerNeverOvershootsPropertyTest {

    private static final BudgetWindow DAY = BudgetWindow.of(Duration.ofDays(1));

    private static BudgetClaim claim(long limit) {
        return new BudgetClaim(new WindowKey("b", "s", 0), BudgetLimit.ofTokens(limit), DAY.endOf(0));
    }

    /**
     * Each step either reserves an estimate (a positive value) or settles the oldest call in
     * flight with a share of its estimate (a value of 0 or less): any interleaving of calls.
     */
    @Property(tries = 300)
    void spentAndReservedStayWithinTheLimitPlusOneEstimate(
            @ForAll @LongRange(min = 1, max = 50_000) long limit,
            @ForAll @Size(min = 1, max = 200) List<@IntRange(min = -100, max = 5_000) Integer> steps) {
        LocalBudgetLedger ledger = new LocalBudgetLedger(new ManualClock(0));
        BudgetClaim claim = claim(limit);
        Deque<Object[]> inFlight = new ArrayDeque<>();
        long largestEstimate = 0;
        for (int step : steps) {
            if (step > 0) {
                BudgetAmount estimate = BudgetAmount.ofTokens(step);
                if (ledger.reserveNow(List.of(claim), estimate) instanceof ReserveResult.Admitted admitted) {
                    inFlight.add(new Object[] {admitted.reservationId(), estimate});
                    largestEstimate = Math.max(largestEstimate, step);
                }
            } else if (!inFlight.isEmpty()) {
                Object[] call = inFlight.poll();
                BudgetAmount estimate = (BudgetAmount) call[1];
                BudgetAmount used = BudgetAmount.ofTokens(estimate.tokens() * -step / 100);
                ledger.settleNow((String) call[0], List.of(claim), estimate, used);
            }
            List<WindowTally> windows = ledger.windows(0).toCompletableFuture().join();
            if (windows.isEmpty()) {
                continue; // nothing reserved yet
            }
            WindowTally tally = windows.get(0);
            assertThat(tally.spent().tokens() + tally.reserved().tokens()).isLessThan(limit + largestEstimate);
        }
    }

    @Test
    void manyThreadsReservingAtOnceAdmitNoMoreThanTheLimitPlusOneEstimate() throws Exception {
        LocalBudgetLedger ledger = new LocalBudgetLedger(new ManualClock(0));
        BudgetClaim claim = claim(10_000);
        BudgetAmount estimate = BudgetAmount.ofTokens(700);
        AtomicLong admitted = new AtomicLong();

        Race.run(16, () -> {
            for (int i = 0; i < 50; i++) {
                if (ledger.reserveNow(List.of(claim), estimate) instanceof ReserveResult.Admitted reserved) {
                    admitted.addAndGet(estimate.tokens());
                    ledger.settleNow(reserved.reservationId(), List.of(claim), estimate, estimate);
                }
            }
            return null;
        });

        assertThat(admitted.get()).isGreaterThanOrEqualTo(10_000).isLessThan(10_000 + 700);
        assertThat(ledger.windows(0).toCompletableFuture().join().get(0).spent().tokens()).isEqualTo(admitted.get());
    }
}
