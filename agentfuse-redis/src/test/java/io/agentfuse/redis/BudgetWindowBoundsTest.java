package io.agentfuse.redis;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.BudgetWindow;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RawRedis;
import io.agentfuse.redis.testing.RedisServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression: every session id a caller chose made a window hash in Redis that lived a day past its
 * window's end, and nothing bounded how many there were (the in-memory ledger keeps 100 000). A
 * window now expires minutes after its end, and the windows of scope values callers named are
 * bounded fleet-wide, the least recently used forgotten first, as in memory.
 */
class BudgetWindowBoundsTest {

    private final String prefix = "bounds-" + UUID.randomUUID() + ":";
    private final RedisServerProcess redis = RedisServerProcess.start();
    private final RawRedis raw = new RawRedis(redis.uri());
    private RedisBudgetLedger ledger;

    @AfterEach
    void stop() {
        if (ledger != null) {
            ledger.close();
        }
        raw.close();
        redis.close();
    }

    private RedisBudgetLedger ledger(int maxNamedWindows) {
        ledger = RedisBudgetLedger.builder(redis.uri()).keyPrefix(prefix).onLoss(BudgetOnLoss.CLOSED)
                .wait(Duration.ofSeconds(5)).maxNamedWindows(maxNamedWindows).build();
        Eventually.await("the ledger reaches Redis", Duration.ofSeconds(10), ledger::isShared);
        return ledger;
    }

    private static BudgetClaim claim(String budget, String scope, Duration window, boolean callerNamed) {
        BudgetWindow windows = BudgetWindow.of(window);
        long now = System.currentTimeMillis();
        return new BudgetClaim(new WindowKey(budget, scope, windows.startOf(now)), BudgetLimit.ofTokens(1_000),
                windows.endOf(now), callerNamed);
    }

    private ReserveResult reserve(BudgetClaim claim) {
        return ledger.reserve(List.of(claim), BudgetAmount.ofTokens(10)).toCompletableFuture().join();
    }

    private boolean held(BudgetClaim claim) {
        return raw.commands().exists(BudgetKeys.window(prefix, claim.key())) == 1;
    }

    @Test
    void aWindowExpiresMinutesAfterItsEndNotADayLater() {
        ledger(10);
        BudgetClaim hour = claim("per-session", "s-1", Duration.ofHours(1), true);
        long before = System.currentTimeMillis();

        ReserveResult admitted = reserve(hour);
        long afterReserving = raw.pttl(BudgetKeys.window(prefix, hour.key()));
        ledger.settle(((ReserveResult.Admitted) admitted).reservationId(), List.of(hour), BudgetAmount.ofTokens(10),
                BudgetAmount.ofTokens(5)).toCompletableFuture().join();
        long afterSettling = raw.pttl(BudgetKeys.window(prefix, hour.key()));

        long mostLeft = hour.endMillis() - before + BudgetCalls.MARGIN_MILLIS;
        assertThat(afterReserving).isPositive().isLessThanOrEqualTo(mostLeft);
        assertThat(afterSettling).isPositive().isLessThanOrEqualTo(mostLeft);
    }

    @Test
    void beyondTheBoundTheCallerNamedWindowLeastRecentlyReservedInIsForgotten() {
        ledger(3);
        Duration day = Duration.ofDays(1);
        BudgetClaim tenant = claim("per-tenant", "team-a", day, false);
        BudgetClaim s1 = claim("per-session", "s-1", day, true);
        BudgetClaim s2 = claim("per-session", "s-2", day, true);
        BudgetClaim s3 = claim("per-session", "s-3", day, true);
        BudgetClaim s4 = claim("per-session", "s-4", day, true);
        BudgetClaim s5 = claim("per-session", "s-5", day, true);
        for (BudgetClaim claim : List.of(tenant, s1, s2, s3, s1, s4, s5)) {
            assertThat(reserve(claim)).isInstanceOf(ReserveResult.Admitted.class);
        }

        assertThat(held(s2)).as("least recently used").isFalse();
        assertThat(held(s3)).isFalse();
        assertThat(held(s1)).as("used again after s-2 and s-3").isTrue();
        assertThat(held(s4)).isTrue();
        assertThat(held(s5)).isTrue();
        assertThat(held(tenant)).as("a window no caller named is not counted").isTrue();
        assertThat(ledger.windows(System.currentTimeMillis()).toCompletableFuture().join())
                .extracting(WindowTally::key).containsExactlyInAnyOrder(tenant.key(), s1.key(), s4.key(), s5.key());
        assertThat(raw.commands().zcard(BudgetKeys.named(prefix))).isEqualTo(3);
    }
}
