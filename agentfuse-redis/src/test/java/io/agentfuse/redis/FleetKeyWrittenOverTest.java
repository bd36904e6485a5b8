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
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression: the keys every instance shares — the instances' hash, the index of windows, the
 * caller-named windows — written over with a string (WRONGTYPE) made every reservation of every
 * instance 503 {@code budget_unavailable} until an operator deleted the key; an instance's entry that
 * did not read as a time did too. Such a key now is taken for absent and replaced, said once.
 */
class FleetKeyWrittenOverTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String prefix = "fleet-over-" + UUID.randomUUID() + ":";
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLogger = (Logger) LoggerFactory.getLogger("io.agentfuse.redis");
    private final RedisServerProcess redis = RedisServerProcess.start();
    private final RawRedis raw = new RawRedis(redis.uri());
    private RedisBudgetLedger ledger;

    @BeforeEach
    void start() {
        log.start();
        redisLogger.addAppender(log);
        // a heartbeat far off: each script under test runs only when the test asks for it
        ledger = RedisBudgetLedger.builder(redis.uri()).keyPrefix(prefix).onLoss(BudgetOnLoss.CLOSED)
                .heartbeat(Duration.ofHours(1)).wait(Duration.ofSeconds(5)).build();
        Eventually.await("the ledger reaches Redis", WAIT, ledger::isShared);
    }

    @AfterEach
    void stop() {
        redisLogger.detachAppender(log);
        ledger.close();
        raw.close();
        redis.close();
    }

    private static BudgetClaim claim(String scope, boolean callerNamed) {
        BudgetWindow day = BudgetWindow.of(Duration.ofDays(1));
        long now = System.currentTimeMillis();
        return new BudgetClaim(new WindowKey("per-tenant", scope, day.startOf(now)), BudgetLimit.ofTokens(1_000),
                day.endOf(now), callerNamed);
    }

    private ReserveResult reserve(BudgetClaim claim) {
        return ledger.reserve(List.of(claim), BudgetAmount.ofTokens(10)).toCompletableFuture().join();
    }

    private void settle(ReserveResult admitted, BudgetClaim claim) {
        ledger.settle(((ReserveResult.Admitted) admitted).reservationId(), List.of(claim), BudgetAmount.ofTokens(10),
                BudgetAmount.ofTokens(7)).toCompletableFuture().join();
    }

    private List<WindowTally> windows() {
        return ledger.windows(System.currentTimeMillis()).toCompletableFuture().join();
    }

    private List<String> warnings(String containing) {
        synchronized (log) { // the appender adds under its own lock
            return log.list.stream().map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(containing)).toList();
        }
    }

    @Test
    void givenTheInstancesKeyWrittenOverWhenInstancesReserveThenItIsReplacedAndSaidOnce() {
        String instances = BudgetKeys.instances(prefix);
        raw.set(instances, "not a hash");

        ReserveResult first = reserve(claim("team-a", false));
        ReserveResult second = reserve(claim("team-b", false));

        assertThat(first).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(second).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(raw.commands().type(instances)).isEqualTo("hash");
        assertThat(ledger.instancesSeen()).isEqualTo(1);
        assertThat(warnings(instances)).singleElement().asString().contains("replaced");
    }

    @Test
    void givenAnInstancesEntryThatIsNoTimeWhenAnInstanceReservesThenTheEntryIsForgotten() {
        String instances = BudgetKeys.instances(prefix);
        raw.commands().hset(instances, "another-instance", "garbage");

        assertThat(reserve(claim("team-a", false))).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(ledger.instancesSeen()).isEqualTo(1);
        assertThat(raw.commands().hexists(instances, "another-instance")).isFalse();
    }

    @Test
    void givenTheIndexWrittenOverWhenCallsReserveSettleAndListThenItIsReplacedAndTheWindowsCount() {
        String index = BudgetKeys.index(prefix);
        raw.set(index, "not a sorted set");
        BudgetClaim tenant = claim("team-a", false);

        ReserveResult admitted = reserve(tenant);
        raw.set(index, "not a sorted set");
        settle(admitted, tenant);
        raw.set(index, "not a sorted set");
        List<WindowTally> listed = windows();

        assertThat(admitted).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(raw.commands().hget(BudgetKeys.window(prefix, tenant.key()), "st")).isEqualTo("7");
        assertThat(listed).as("the index is rebuilt by the windows reserved in from now on").isEmpty();
        assertThat(reserve(tenant)).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(windows()).singleElement().satisfies(tally -> assertThat(tally.spent().tokens()).isEqualTo(7));
        assertThat(warnings(index)).as("once while it goes on").singleElement().asString().contains("replaced");
    }

    @Test
    void givenTheNamedWindowsKeyWrittenOverWhenACallerNamedScopeReservesThenItIsReplaced() {
        String named = BudgetKeys.named(prefix);
        raw.set(named, "not a sorted set");

        assertThat(reserve(claim("session-1", true))).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(raw.commands().zcard(named)).isEqualTo(1);
        assertThat(warnings(named)).singleElement().asString().contains("replaced");
    }

    @Test
    void givenAWindowWhoseSpentDoesNotReadWhenItIsReservedInThenTheRefusalNamesTheWindowAndTheMend() {
        BudgetClaim tenant = claim("team-a", false);
        settle(reserve(tenant), tenant);
        raw.commands().hset(BudgetKeys.window(prefix, tenant.key()), "st", "garbage");

        ReserveResult refused = reserve(tenant);

        assertThat(refused).isInstanceOfSatisfying(ReserveResult.Unavailable.class, unavailable -> assertThat(
                unavailable.reason()).contains("'team-a'").contains("not a number").contains("reset"));
        assertThat(reserve(tenant)).isInstanceOf(ReserveResult.Unavailable.class);
        assertThat(warnings(BudgetKeys.window(prefix, tenant.key()))).as("said once").singleElement().asString()
                .contains("not a number");
        assertThat(reserve(claim("team-b", false))).isInstanceOf(ReserveResult.Admitted.class);
        assertThat(ledger.reset(tenant.key()).toCompletableFuture().join()).isTrue();
        assertThat(reserve(tenant)).isInstanceOf(ReserveResult.Admitted.class);
    }
}
