package io.agentfuse.redis;

import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;
import io.lettuce.core.ScriptOutputType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Budgets a fleet shares on Redis (docs/design.md §11): every reservation and every settlement is
 * one atomic Lua script ({@link BudgetScripts}), so no instance can overshoot another's reservations;
 * a window overshoots its limit by at most one call's estimate. Redis's answers are awaited for a
 * short bounded time ({@code wait}, default 250 ms): a Redis that is down, frozen or slower than that
 * costs one call that wait, and then the declared {@link BudgetOnLoss} applies at once to every call
 * ({@link BudgetLoss}) until a probe (every {@code probeInterval}) finds Redis answering again; what
 * was settled meanwhile is then settled into Redis, and Redis decides again.
 *
 * <p>Each instance tells Redis it is alive on every reservation and every {@code heartbeat}; the
 * instances seen within {@code presenceTtl} are what {@code share} divides by. Every fifth heartbeat
 * also reads the fleet's windows, so that an instance knows what is left of a window it has not
 * reserved in when Redis goes away (a window it never heard of counts as unspent). A reservation lapses
 * after {@code reservationTtl} if it is never settled (its instance died). Thread-safe; its own
 * daemon thread {@code agentfuse-redis-budgets}.
 *
 * <pre>{@code
 * RedisBudgetLedger ledger = RedisBudgetLedger.builder("redis://127.0.0.1:6379").onLoss(BudgetOnLoss.SHARE).build();
 * TokenBudget budget = TokenBudget.builder("per-tenant").tokens(2_000_000).ledger(ledger).build();
 * // ... at shutdown
 * ledger.close();
 * }</pre>
 */
public final class RedisBudgetLedger implements BudgetLedger {

    private static final Logger LOG = LoggerFactory.getLogger(RedisBudgetLedger.class);
    /** How long a window's record is kept after its end: the admin API shows the day before. */
    private static final long RETENTION_MILLIS = Duration.ofDays(1).toMillis();
    /** The windows the admin API lists at most. */
    private static final int MAX_LISTED = 1_000;
    /** Every how many heartbeats the fleet's windows are read (the instances are counted on each). */
    private static final int WINDOW_READS_EVERY = 5;

    private final String prefix;
    private final String instance = UUID.randomUUID().toString();
    private final Duration wait;
    private final Duration reservationTtl;
    private final Duration presenceTtl;
    private final Duration heartbeat;
    private final Duration probeInterval;
    private final ScheduledExecutorService thread;
    private final BudgetRedis redis;
    private final BudgetLoss loss;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong beats = new AtomicLong();

    private RedisBudgetLedger(Builder builder) {
        this.prefix = builder.keyPrefix;
        this.wait = builder.wait;
        this.reservationTtl = builder.reservationTtl;
        this.presenceTtl = builder.presenceTtl;
        this.heartbeat = builder.heartbeat;
        this.probeInterval = builder.probeInterval;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread daemon = new Thread(runnable, "agentfuse-redis-budgets");
            daemon.setDaemon(true);
            return daemon;
        });
        this.redis = new BudgetRedis(builder.uri, builder.commandTimeout, thread);
        this.loss = new BudgetLoss(builder.onLoss, builder.clock);
        redis.open(this::probe);
        redis.schedule(this::beat, heartbeat.toMillis());
    }

    /** A builder for a ledger on the Redis at {@code uri} ({@code redis://} or {@code rediss://}). */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }

    @Override
    public CompletionStage<ReserveResult> reserve(List<BudgetClaim> claims, BudgetAmount estimate) {
        if (loss.away()) {
            return CompletableFuture.completedFuture(loss.reserve(claims, estimate));
        }
        String id = instance + ":" + ids.incrementAndGet();
        String[] args = BudgetScripts.reserveArgs(id, estimate, reservationTtl.toMillis(), instance,
                presenceTtl.toMillis(), RETENTION_MILLIS, claims);
        return redis.<List<Object>>eval(BudgetScripts.RESERVE, ScriptOutputType.MULTI,
                BudgetScripts.reserveKeys(prefix, claims), args, wait).handle((reply, failure) -> {
                    if (failure == null) {
                        BudgetScripts.Reply answer = BudgetScripts.reserveReply(reply, id, claims);
                        loss.heard(tallies(answer.result()), answer.instances());
                        return answer.result();
                    }
                    lost(failure);
                    // Redis may still run the reservation it did not answer in time: it is given back when Redis is back.
                    loss.owe(id, claims, BudgetAmount.ZERO);
                    return loss.reserve(claims, estimate);
                });
    }

    @Override
    public CompletionStage<Void> settle(String reservationId, List<BudgetClaim> claims, BudgetAmount estimate,
                                        BudgetAmount used) {
        if (BudgetLoss.madeAlone(reservationId) && loss.away()) {
            loss.settleAlone(reservationId, claims, estimate, used);
            return CompletableFuture.completedFuture(null);
        }
        if (loss.oweIfAway(reservationId, claims, used)) {
            return CompletableFuture.completedFuture(null);
        }
        return send(new BudgetLoss.Owed(reservationId, claims, used)).handle((sent, failure) -> {
            if (failure != null) {
                lost(failure);
                loss.owe(reservationId, claims, used);
            }
            return null;
        });
    }

    private CompletableFuture<Object> send(BudgetLoss.Owed owed) {
        return redis.eval(BudgetScripts.SETTLE, ScriptOutputType.INTEGER, BudgetScripts.settleKeys(prefix, owed.claims()),
                BudgetScripts.settleArgs(owed.id(), owed.used(), RETENTION_MILLIS, owed.claims()), wait);
    }

    @Override
    public CompletionStage<List<WindowTally>> windows(long nowMillis) {
        if (loss.away()) {
            return CompletableFuture.failedFuture(new IllegalStateException("Redis is away; the fleet's windows are there"));
        }
        return redis.<List<Object>>eval(BudgetScripts.LIST, ScriptOutputType.MULTI,
                        new String[] {BudgetScripts.indexKey(prefix)},
                        new String[] {Long.toString(nowMillis), Integer.toString(MAX_LISTED), Long.toString(RETENTION_MILLIS)},
                        wait.multipliedBy(4))
                .thenApply(reply -> BudgetScripts.listed(prefix, reply));
    }

    @Override
    public CompletionStage<Boolean> reset(WindowKey key) {
        return redis.<Long>eval(BudgetScripts.RESET, ScriptOutputType.INTEGER,
                new String[] {BudgetScripts.windowKey(prefix, key)}, new String[0], wait.multipliedBy(4))
                .thenApply(existed -> existed == 1L);
    }

    /** Whether Redis answers now: budgets are decided there, not by the loss rule. */
    public boolean isShared() {
        return !loss.away();
    }

    /** What Redis last said of {@code window} to this instance (what the loss rule starts from), if anything. */
    public Optional<WindowTally> lastHeard(WindowKey window) {
        return loss.lastHeard(window);
    }

    /** The instances Redis counted when it last answered (0 before it ever did). */
    public int instancesSeen() {
        return loss.instances();
    }

    /** Redis did not answer: from now on, the loss rule, and a probe until it answers again. */
    private void lost(Throwable failure) {
        if (loss.lost()) {
            LOG.warn("Redis did not answer a budget call within {} ms ({}); budgets follow state.redis.budgetOnLoss until it does",
                    wait.toMillis(), failure.toString());
            redis.schedule(this::probe, probeInterval.toMillis());
        }
    }

    /** Asks Redis whether it is back; if so, settles what it is owed and lets it decide again. */
    private void probe() {
        if (!loss.away()) {
            return;
        }
        presence().whenComplete((instances, failure) -> {
            if (failure != null) {
                redis.schedule(this::probe, probeInterval.toMillis());
            } else {
                loss.heard(instances.intValue());
                replay();
            }
        });
    }

    /** Settles what Redis is owed, one after another, until nothing is; then Redis decides again. */
    private void replay() {
        List<BudgetLoss.Owed> due = loss.takeOwedOrReturn();
        if (due.isEmpty()) {
            LOG.info("Redis answers budget calls again; it decides them from now on");
            return;
        }
        replay(due, 0);
    }

    /**
     * Sends {@code due[from..]} in order; on a failure puts back what was not answered (the one that
     * failed included: counting a spend twice errs on the side of the budget, forgetting it would not).
     */
    private void replay(List<BudgetLoss.Owed> due, int from) {
        if (from == due.size()) {
            redis.schedule(this::replay, 0);
            return;
        }
        send(due.get(from)).whenComplete((sent, failure) -> {
            if (failure != null) {
                loss.putBack(due.subList(from, due.size()));
                redis.schedule(this::probe, probeInterval.toMillis());
            } else {
                replay(due, from + 1);
            }
        });
    }

    private CompletableFuture<Long> presence() {
        return redis.eval(BudgetScripts.PRESENCE, ScriptOutputType.INTEGER, new String[] {BudgetScripts.instancesKey(prefix)},
                new String[] {instance, Long.toString(presenceTtl.toMillis())}, wait);
    }

    /**
     * Tells Redis this instance is alive, so that the others count it in their share, and every
     * {@value #WINDOW_READS_EVERY}th time reads the fleet's windows (up to {@value #MAX_LISTED}), so
     * that a window this instance has not reserved in is known too when Redis goes away.
     */
    private void beat() {
        if (!loss.away()) {
            boolean readWindows = beats.incrementAndGet() % WINDOW_READS_EVERY == 0;
            presence().thenCompose(instances -> {
                loss.heard(instances.intValue());
                return readWindows ? windows(loss.clockMillis()) : CompletableFuture.completedFuture(List.<WindowTally>of());
            }).whenComplete((windows, failure) -> {
                if (failure == null) {
                    loss.heard(windows, loss.instances());
                } else {
                    lost(failure);
                }
            });
        }
        redis.schedule(this::beat, heartbeat.toMillis());
    }

    private static List<WindowTally> tallies(ReserveResult result) {
        if (result instanceof ReserveResult.Admitted admitted) {
            return admitted.tallies();
        }
        return result instanceof ReserveResult.Refused refused ? List.of(refused.tally()) : List.of();
    }

    /** Closes the connection and stops the ledger's thread; never blocks for Redis. */
    @Override
    public void close() {
        thread.shutdownNow();
        redis.close();
    }

    @Override
    public String toString() {
        return "RedisBudgetLedger[" + redis + ", prefix " + prefix + "]";
    }

    /**
     * Collects a ledger's settings: key prefix ({@code agentfuse:}), loss rule ({@code share}), clock
     * (system), wait (250 ms), reservation TTL (15 min), presence TTL (15 s), heartbeat (1 s), probe
     * interval (250 ms), command timeout (1 s). Not thread-safe.
     */
    public static final class Builder {
        private final String uri;
        private String keyPrefix = RedisStateStore.DEFAULT_KEY_PREFIX;
        private BudgetOnLoss onLoss = BudgetOnLoss.SHARE;
        private Clock clock = Clock.system();
        private Duration wait = Duration.ofMillis(250);
        private Duration reservationTtl = Duration.ofMinutes(15);
        private Duration presenceTtl = Duration.ofSeconds(15);
        private Duration heartbeat = Duration.ofSeconds(1);
        private Duration probeInterval = Duration.ofMillis(250);
        private Duration commandTimeout = Duration.ofSeconds(1);

        private Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
            if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
                throw new IllegalArgumentException("state.redis.uri must start with redis:// or rediss://, but was '" + uri + "'");
            }
        }

        /** The prefix of every key; default {@code agentfuse:}. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
            return this;
        }

        /** What budgets do while Redis is away; default {@link BudgetOnLoss#SHARE}. */
        public Builder onLoss(BudgetOnLoss onLoss) {
            this.onLoss = Objects.requireNonNull(onLoss, "onLoss");
            return this;
        }

        /** The clock of the ledger's own windows while Redis is away; default the system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The longest a call waits for Redis's answer before the loss rule decides it; default 250 ms. */
        public Builder wait(Duration wait) {
            this.wait = positive("wait", wait);
            return this;
        }

        /** How long an unsettled reservation holds its estimate (its instance may have died); default 15 min. */
        public Builder reservationTtl(Duration reservationTtl) {
            this.reservationTtl = positive("reservationTtl", reservationTtl);
            return this;
        }

        /** How long an instance that said nothing still counts among those a share divides by; default 15 s. */
        public Builder presenceTtl(Duration presenceTtl) {
            this.presenceTtl = positive("presenceTtl", presenceTtl);
            return this;
        }

        /** How often an instance tells Redis it is alive (and, every fifth time, reads the fleet's windows); default 1 s. */
        public Builder heartbeat(Duration heartbeat) {
            this.heartbeat = positive("heartbeat", heartbeat);
            return this;
        }

        /** How often a ledger whose Redis is away asks whether it is back; default 250 ms. */
        public Builder probeInterval(Duration probeInterval) {
            this.probeInterval = positive("probeInterval", probeInterval);
            return this;
        }

        /** How long Lettuce waits for any command before failing it; default 1 s. */
        public Builder commandTimeout(Duration commandTimeout) {
            this.commandTimeout = positive("commandTimeout", commandTimeout);
            return this;
        }

        private static Duration positive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, but was " + value);
            }
            return value;
        }

        /** The ledger; it connects in the background, following the loss rule until Redis answers. */
        public RedisBudgetLedger build() {
            return new RedisBudgetLedger(this);
        }
    }
}
