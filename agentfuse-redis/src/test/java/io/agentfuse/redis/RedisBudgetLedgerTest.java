package io.agentfuse.redis;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
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
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Ledgers ("instances") on one real redis-server share budgets, and follow their loss rule when it is gone. */
class RedisBudgetLedgerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String prefix = "budget-test-" + UUID.randomUUID() + ":";
    private final List<RedisBudgetLedger> ledgers = new ArrayList<>();
    private RedisServerProcess redis = RedisServerProcess.start();

    @AfterEach
    void stop() {
        ledgers.forEach(RedisBudgetLedger::close);
        redis.close();
    }

    /**
     * An instance on the test's Redis. It waits for Redis long enough that a busy machine's slow
     * answer is not taken for an outage (the frozen-Redis test shortens it).
     */
    private RedisBudgetLedger ledger(BudgetOnLoss onLoss) {
        return ledger(onLoss, Duration.ofSeconds(5));
    }

    private RedisBudgetLedger ledger(BudgetOnLoss onLoss, Duration wait) {
        RedisBudgetLedger ledger = RedisBudgetLedger.builder(redis.uri()).keyPrefix(prefix).onLoss(onLoss)
                .heartbeat(Duration.ofMillis(100)).wait(wait).build();
        ledgers.add(ledger);
        Eventually.await("the ledger reaches Redis", WAIT, ledger::isShared);
        return ledger;
    }

    private static BudgetClaim claim(String scope, long tokens) {
        BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));
        long now = System.currentTimeMillis();
        return new BudgetClaim(new WindowKey("per-tenant", scope, day.startOf(now)), BudgetLimit.ofTokens(tokens), day.endOf(now));
    }

    private static ReserveResult reserve(RedisBudgetLedger ledger, BudgetClaim claim, long tokens) {
        return ledger.reserve(List.of(claim), BudgetAmount.ofTokens(tokens)).toCompletableFuture().join();
    }

    /** Reserves {@code tokens} at a time, each settled in full, until refused; the tokens admitted. */
    private static long spendAll(RedisBudgetLedger ledger, BudgetClaim claim, long tokens) {
        long admitted = 0;
        while (reserve(ledger, claim, tokens) instanceof ReserveResult.Admitted reserved) {
            ledger.settle(reserved.reservationId(), List.of(claim), BudgetAmount.ofTokens(tokens),
                    BudgetAmount.ofTokens(tokens)).toCompletableFuture().join();
            admitted += tokens;
        }
        return admitted;
    }

    private static WindowTally window(RedisBudgetLedger ledger, BudgetClaim claim) {
        return ledger.windows(System.currentTimeMillis()).toCompletableFuture().join().stream()
                .filter(tally -> tally.key().equals(claim.key())).findFirst().orElseThrow();
    }

    @Test
    void instancesReservingAtOnceAdmitNoMoreThanTheLimitPlusOneEstimate() throws Exception {
        List<RedisBudgetLedger> fleet = List.of(ledger(BudgetOnLoss.SHARE), ledger(BudgetOnLoss.SHARE), ledger(BudgetOnLoss.SHARE));
        BudgetClaim tenant = claim("team-a", 10_000);
        AtomicLong admitted = new AtomicLong();
        List<CompletableFuture<Void>> callers = new ArrayList<>();
        for (RedisBudgetLedger ledger : fleet) {
            for (int caller = 0; caller < 3; caller++) {
                callers.add(CompletableFuture.runAsync(() -> admitted.addAndGet(spendAll(ledger, tenant, 700))));
            }
        }
        CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(admitted.get()).isGreaterThanOrEqualTo(10_000).isLessThan(10_000 + 700);
        assertThat(window(fleet.get(0), tenant).spent().tokens()).isEqualTo(admitted.get());
        assertThat(window(fleet.get(0), tenant).reserved().tokens()).isZero();
    }

    @Test
    void aReservationOverTwoBudgetsIsRefusedWholeAndNamesTheSpentOne() {
        RedisBudgetLedger ledger = ledger(BudgetOnLoss.SHARE);
        BudgetClaim tenant = claim("team-a", 1_000);
        BudgetClaim session = new BudgetClaim(new WindowKey("per-session", "s1", tenant.key().startMillis()),
                BudgetLimit.ofTokens(50), tenant.endMillis());
        reserve(ledger, session, 50);

        ReserveResult refused = ledger.reserve(List.of(tenant, session), BudgetAmount.ofTokens(10)).toCompletableFuture().join();

        assertThat(refused).isInstanceOfSatisfying(ReserveResult.Refused.class, result -> {
            assertThat(result.claim()).isEqualTo(1);
            assertThat(result.tally().reserved().tokens()).isEqualTo(50);
        });
        assertThat(ledger.windows(System.currentTimeMillis()).toCompletableFuture().join())
                .noneMatch(tally -> tally.key().equals(tenant.key()));
    }

    @Test
    void settlementsPastTheLargestCountSpendTheWindowAndRedisGoesOnDeciding() {
        RedisBudgetLedger ledger = ledger(BudgetOnLoss.CLOSED);
        BudgetClaim tenant = claim("team-a", 1_000);
        BudgetAmount enormous = new BudgetAmount(Long.MAX_VALUE, Long.MAX_VALUE); // what a provider's absurd usage saturates to
        ReserveResult.Admitted first = (ReserveResult.Admitted) reserve(ledger, tenant, 10);
        ReserveResult.Admitted second = (ReserveResult.Admitted) reserve(ledger, tenant, 10);

        ledger.settle(first.reservationId(), List.of(tenant), BudgetAmount.ofTokens(10), enormous).toCompletableFuture().join();
        ledger.settle(second.reservationId(), List.of(tenant), BudgetAmount.ofTokens(10), enormous).toCompletableFuture().join();

        assertThat(ledger.isShared()).as("Redis answered every settlement: it is not away").isTrue();
        assertThat(reserve(ledger, tenant, 10)).isInstanceOf(ReserveResult.Refused.class);
        assertThat(window(ledger, tenant).spent().tokens()).isGreaterThan(Long.MAX_VALUE / 4);
        assertThat(window(ledger, tenant).reserved().tokens()).isZero();
    }

    /**
     * Regression: the budget ledger's connection had no bound on what it buffers, unlike the breaker
     * store's: a value of hundreds of MB in a window (or a broken Redis announcing one) was read whole
     * into memory, ending in an OutOfMemoryError. Now it costs a reconnect and a warning.
     */
    @Test
    void aWindowHoldingAHugeValueCostsAReconnectAndAWarningNotTheHeap() {
        RedisBudgetLedger ledger = ledger(BudgetOnLoss.SHARE);
        BudgetClaim tenant = claim("team-a", 1_000);
        reserve(ledger, tenant, 10);
        try (RawRedis raw = new RawRedis(redis.uri())) {
            raw.commands().hset(BudgetKeys.window(prefix, tenant.key()), "lt", "9".repeat(4 << 20));
        }
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
        lines.start();
        logger.addAppender(lines);
        try {
            Throwable listing = ledger.windows(System.currentTimeMillis()).toCompletableFuture()
                    .handle((windows, failure) -> failure).join();

            assertThat(listing).as("the reply was refused, not read").isNotNull();
            synchronized (lines.list) {
                assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                        .anyMatch(line -> line.contains("closed the connection to Redis"));
            }
        } finally {
            logger.detachAppender(lines);
        }
        Eventually.await("the ledger reserves on Redis again", WAIT, () -> ledger.isShared()
                && reserve(ledger, claim("team-b", 1_000), 10) instanceof ReserveResult.Admitted);
    }

    @Test
    void aResetWindowAdmitsAgain() {
        RedisBudgetLedger ledger = ledger(BudgetOnLoss.SHARE);
        BudgetClaim tenant = claim("team-a", 100);
        spendAll(ledger, tenant, 100);

        assertThat(ledger.reset(tenant.key()).toCompletableFuture().join()).isTrue();

        assertThat(reserve(ledger, tenant, 1)).isInstanceOf(ReserveResult.Admitted.class);
    }

    @Test
    void aWindowSpentThroughOneInstanceIsKnownSpentByTheOthersWhenRedisGoesAway() {
        RedisBudgetLedger a = ledger(BudgetOnLoss.SHARE);
        RedisBudgetLedger b = ledger(BudgetOnLoss.SHARE);
        BudgetClaim tenant = claim("team-a", 9_000);
        spendAll(a, tenant, 3_000);
        Eventually.await("b reads the fleet's windows on its heartbeat", WAIT, () -> knowsSpent(b, tenant));
        redis.kill();

        long alone = spendAll(a, tenant, 100) + spendAll(b, tenant, 100);

        assertThat(a.isShared()).isFalse();
        assertThat(alone).isZero(); // the budget was spent when Redis last answered
    }

    /** Whether {@code ledger} would refuse {@code claim} from what it last heard, were Redis away now. */
    private static boolean knowsSpent(RedisBudgetLedger ledger, BudgetClaim claim) {
        return ledger.lastHeard(claim.key()).map(tally -> !tally.admits()).orElse(false);
    }

    @Test
    void withRedisKilledInTheMiddleTheInstancesSpendNoMoreThanTheirShares() {
        RedisBudgetLedger a = ledger(BudgetOnLoss.SHARE);
        RedisBudgetLedger b = ledger(BudgetOnLoss.SHARE);
        RedisBudgetLedger c = ledger(BudgetOnLoss.SHARE);
        Eventually.await("each sees three instances", WAIT,
                () -> reserveAndRelease(a) && a.instancesSeen() == 3 && reserveAndRelease(b) && reserveAndRelease(c)
                        && c.instancesSeen() == 3);
        BudgetClaim tenant = claim("team-b", 9_000);
        for (RedisBudgetLedger ledger : List.of(a, b, c)) {
            var reserved = (ReserveResult.Admitted) reserve(ledger, tenant, 1_000);
            ledger.settle(reserved.reservationId(), List.of(tenant), BudgetAmount.ofTokens(1_000), BudgetAmount.ofTokens(1_000))
                    .toCompletableFuture().join();
        }
        redis.kill();

        long spentAlone = 0;
        for (RedisBudgetLedger ledger : List.of(a, b, c)) {
            // what this instance last heard was left (6 000 to 8 000, as the others' calls reached it), a third of it
            long share = ledger.lastHeard(tenant.key()).orElseThrow().remaining().tokens() / 3;
            long spent = spendAll(ledger, tenant, 100);
            assertThat(spent).isEqualTo((share + 99) / 100 * 100).isLessThan(share + 100);
            spentAlone += spent;
        }
        assertThat(spentAlone).isBetween(6_000L, 8_100L);

        redis.restart();
        long owed = spentAlone;
        Eventually.await("the instances settle what they spent alone", WAIT, () -> a.isShared() && b.isShared() && c.isShared());
        Eventually.await("Redis has every settlement", WAIT, () -> window(a, tenant).spent().tokens() == owed); // it restarted empty
    }

    /** One reservation of nothing, given back: tells Redis this instance is alive. */
    private boolean reserveAndRelease(RedisBudgetLedger ledger) {
        BudgetClaim probe = claim("presence", 1);
        if (reserve(ledger, probe, 0) instanceof ReserveResult.Admitted admitted) {
            ledger.settle(admitted.reservationId(), List.of(probe), BudgetAmount.ZERO, BudgetAmount.ZERO).toCompletableFuture().join();
        }
        return true;
    }

    @Test
    void closedRefusesAndOpenCountsLocallyWhileRedisIsAway() {
        RedisBudgetLedger closed = ledger(BudgetOnLoss.CLOSED);
        RedisBudgetLedger open = ledger(BudgetOnLoss.OPEN);
        BudgetClaim tenant = claim("team-c", 1_000);
        reserveAndRelease(open);
        redis.kill();

        assertThat(reserve(closed, tenant, 1)).isInstanceOf(ReserveResult.Unavailable.class);
        assertThat(spendAll(open, tenant, 100)).isEqualTo(1_000);
    }

    @Test
    void aFrozenRedisCostsABoundedWaitAndThenTheLossRuleDecides() throws Exception {
        RedisBudgetLedger ledger = ledger(BudgetOnLoss.SHARE, Duration.ofMillis(250));
        BudgetClaim tenant = claim("team-d", 1_000);
        reserveAndRelease(ledger);
        redis.pause();
        try {
            // the answer comes without Redis (a guard against a hang, not a timing assertion)
            ReserveResult result = ledger.reserve(List.of(tenant), BudgetAmount.ofTokens(100)).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);

            assertThat(result).isInstanceOf(ReserveResult.Admitted.class);
            assertThat(ledger.isShared()).isFalse();
            var admitted = (ReserveResult.Admitted) result;
            ledger.settle(admitted.reservationId(), List.of(tenant), BudgetAmount.ofTokens(100), BudgetAmount.ofTokens(60));
        } finally {
            redis.resume();
        }
        Eventually.await("Redis decides again once it answers", WAIT, ledger::isShared);
        assertThat(window(ledger, tenant).spent().tokens()).isEqualTo(60);
        assertThat(window(ledger, tenant).reserved().tokens()).isZero(); // the unanswered reservation was given back
    }

    @Test
    void aLedgerThatNeverReachedRedisRefusesUnderShare() {
        RedisBudgetLedger alone = RedisBudgetLedger.builder("redis://127.0.0.1:1").keyPrefix(prefix).build();
        ledgers.add(alone);

        assertThat(reserve(alone, claim("team-e", 100), 1)).isInstanceOf(ReserveResult.Unavailable.class);
    }
}
