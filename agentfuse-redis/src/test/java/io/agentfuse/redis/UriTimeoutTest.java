package io.agentfuse.redis;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLimit;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.BudgetWindow;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.redis.testing.Eventually;
import io.agentfuse.redis.testing.RedisServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that answers late, behind a ledger that refuses while Redis is away: the URI's
 * {@code timeout} decides whether a late answer still counts. Redis is frozen (SIGSTOP) for 2.5 s,
 * past the 1 s default and well within the 10 s the URI writes; the ledger waits up to 20 s for
 * Redis, so that only the command timeout can tell Redis gone.
 */
class UriTimeoutTest {

    private static final Duration FROZEN = Duration.ofMillis(2_500);

    private final String prefix = "uri-timeout-" + UUID.randomUUID() + ":";
    private final RedisServerProcess redis = RedisServerProcess.start();
    private RedisBudgetLedger ledger;

    @AfterEach
    void stop() {
        if (ledger != null) {
            ledger.close();
        }
        redis.close();
    }

    @Test
    void aLateAnswerWithinTheUrisTimeoutStillDecides() throws Exception {
        ledger = ledger(redis.uri() + "?timeout=10s");

        assertThat(reserveWhileFrozen()).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(ledger.isShared()).isTrue();
    }

    @Test
    void withoutOneTheSameLateAnswerComesAfterTheDefaultSecondAndRedisCountsAsAway() throws Exception {
        ledger = ledger(redis.uri());

        assertThat(reserveWhileFrozen()).isInstanceOf(ReserveResult.Unavailable.class);
    }

    private RedisBudgetLedger ledger(String uri) {
        RedisBudgetLedger made = RedisBudgetLedger.builder(uri).keyPrefix(prefix).onLoss(BudgetOnLoss.CLOSED)
                .wait(Duration.ofSeconds(20)).build();
        Eventually.await("the ledger reaches Redis", Duration.ofSeconds(10), made::isShared);
        return made;
    }

    private ReserveResult reserveWhileFrozen() throws Exception {
        BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));
        long now = System.currentTimeMillis();
        BudgetClaim tenant = new BudgetClaim(new WindowKey("per-tenant", "team-a", day.startOf(now)),
                BudgetLimit.ofTokens(1_000), day.endOf(now));
        redis.pause();
        CompletableFuture<ReserveResult> result;
        try {
            result = ledger.reserve(List.of(tenant), BudgetAmount.ofTokens(10)).toCompletableFuture();
            Thread.sleep(FROZEN.toMillis()); // Redis's late answer, not a timing assertion
        } finally {
            redis.resume();
        }
        return result.get(30, TimeUnit.SECONDS);
    }
}
