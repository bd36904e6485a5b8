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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression: a settle script that Redis answered with an error — a window key written over with a
 * string (WRONGTYPE), a spent field that is not a number — was taken for an outage, and its replay
 * failed on every probe, so the ledger followed its loss rule for ever (with {@code closed}, every
 * budgeted call got 503 until a restart). Redis answering with an error about one key is not an
 * outage: that key's call is refused and logged once, and Redis goes on deciding.
 */
class BudgetKeyWrittenOverTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String prefix = "written-over-" + UUID.randomUUID() + ":";
    private final List<RedisBudgetLedger> ledgers = new ArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLogger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
    private final RedisServerProcess redis = RedisServerProcess.start();
    private final RawRedis raw = new RawRedis(redis.uri());

    @BeforeEach
    void capture() {
        log.start();
        redisLogger.addAppender(log);
    }

    @AfterEach
    void stop() {
        redisLogger.detachAppender(log);
        ledgers.forEach(RedisBudgetLedger::close);
        raw.close();
        redis.close();
    }

    private RedisBudgetLedger ledger(Duration wait) {
        RedisBudgetLedger ledger = RedisBudgetLedger.builder(redis.uri()).keyPrefix(prefix).onLoss(BudgetOnLoss.CLOSED)
                .heartbeat(Duration.ofMillis(100)).wait(wait).build();
        ledgers.add(ledger);
        Eventually.await("the ledger reaches Redis", WAIT, ledger::isShared);
        return ledger;
    }

    private static BudgetClaim claim(String budget, String scope) {
        BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));
        long now = System.currentTimeMillis();
        return new BudgetClaim(new WindowKey(budget, scope, day.startOf(now)), BudgetLimit.ofTokens(1_000), day.endOf(now));
    }

    private static ReserveResult reserve(RedisBudgetLedger ledger, List<BudgetClaim> claims) {
        return ledger.reserve(claims, BudgetAmount.ofTokens(10)).toCompletableFuture().join();
    }

    private static void settle(RedisBudgetLedger ledger, ReserveResult admitted, List<BudgetClaim> claims) {
        ledger.settle(((ReserveResult.Admitted) admitted).reservationId(), claims, BudgetAmount.ofTokens(10),
                BudgetAmount.ofTokens(7)).toCompletableFuture().join();
    }

    private String key(BudgetClaim claim) {
        return BudgetKeys.window(prefix, claim.key());
    }

    private static Optional<WindowTally> window(RedisBudgetLedger ledger, BudgetClaim claim) {
        return ledger.windows(System.currentTimeMillis()).toCompletableFuture().join().stream()
                .filter(tally -> tally.key().equals(claim.key())).findFirst();
    }

    private List<String> warnings(String containing) {
        synchronized (log) { // the appender adds under its own lock
            return log.list.stream().map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(containing)).toList();
        }
    }

    @Test
    void aSettlementCountsInItsWindowsAndLeavesOutTheOneWrittenOverWithAString() {
        RedisBudgetLedger ledger = ledger(Duration.ofSeconds(5));
        BudgetClaim tenant = claim("per-tenant", "team-a");
        BudgetClaim session = claim("per-session", "s-1");
        List<BudgetClaim> both = List.of(tenant, session);
        ReserveResult admitted = reserve(ledger, both);
        raw.set(key(session), "not a window");

        settle(ledger, admitted, both);

        assertThat(ledger.isShared()).as("Redis answered: it is not away").isTrue();
        assertThat(window(ledger, tenant)).hasValueSatisfying(tally -> {
            assertThat(tally.spent().tokens()).isEqualTo(7);
            assertThat(tally.reserved().tokens()).isZero();
        });
        assertThat(window(ledger, session)).as("listed without the key that holds no window").isEmpty();
        assertThat(raw.get(key(session))).isEqualTo("not a window");
        assertThat(warnings("Redis refused a budget settlement")).singleElement().asString()
                .contains(key(session)).doesNotContain(key(tenant));
        assertThat(reserve(ledger, List.of(claim("per-tenant", "team-b")))).isInstanceOf(ReserveResult.Admitted.class);
    }

    @Test
    void aWindowWhoseSpentDoesNotReadRefusesItsOwnCallsAloneAndSaysSoOnce() {
        RedisBudgetLedger ledger = ledger(Duration.ofSeconds(5));
        BudgetClaim tenant = claim("per-tenant", "team-a");
        ReserveResult first = reserve(ledger, List.of(tenant));
        ReserveResult second = reserve(ledger, List.of(tenant));
        raw.commands().hset(key(tenant), "st", "garbage");

        settle(ledger, first, List.of(tenant));
        settle(ledger, second, List.of(tenant));

        assertThat(ledger.isShared()).as("Redis answered every settlement: it is not away").isTrue();
        assertThat(warnings("Redis refused a budget settlement")).as("said once while it goes on").singleElement()
                .asString().contains(key(tenant));
        assertThat(reserve(ledger, List.of(tenant))).isInstanceOf(ReserveResult.Unavailable.class);
        assertThat(reserve(ledger, List.of(claim("per-tenant", "team-b")))).isInstanceOf(ReserveResult.Admitted.class);
    }

    @Test
    void aSettlementOwedWhileRedisWasAwayThatRedisRefusesIsDroppedAndRedisDecidesAgain() throws Exception {
        RedisBudgetLedger ledger = ledger(Duration.ofMillis(250));
        BudgetClaim tenant = claim("per-tenant", "team-a");
        ReserveResult admitted = reserve(ledger, List.of(tenant));
        raw.commands().hset(key(tenant), "st", "garbage");
        redis.pause();
        try {
            // a reservation Redis does not answer within the wait takes it away (a guard against a hang, not a timing)
            ledger.reserve(List.of(claim("per-tenant", "team-b")), BudgetAmount.ofTokens(10)).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            assertThat(ledger.isShared()).isFalse();
            settle(ledger, admitted, List.of(tenant)); // owed to Redis until it is back
        } finally {
            redis.resume();
        }

        Eventually.await("Redis decides again once it answers", WAIT, ledger::isShared);
        assertThat(warnings("Redis refused a budget settlement")).singleElement().asString().contains(key(tenant));
    }

    @Test
    void resettingAWindowWrittenOverMendsIt() {
        RedisBudgetLedger ledger = ledger(Duration.ofSeconds(5));
        BudgetClaim tenant = claim("per-tenant", "team-a");
        raw.set(key(tenant), "not a window");
        assertThat(reserve(ledger, List.of(tenant))).isInstanceOf(ReserveResult.Unavailable.class);

        assertThat(ledger.reset(tenant.key()).toCompletableFuture().join()).isTrue();

        assertThat(reserve(ledger, List.of(tenant))).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(ledger.isShared()).isTrue();
    }
}
