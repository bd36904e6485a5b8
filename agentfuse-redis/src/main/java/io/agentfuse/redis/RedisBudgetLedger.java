package io.agentfuse.redis;

import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetLedger;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;

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
 * was settled meanwhile is then settled into Redis, and Redis decides again. An error reply about one
 * key (a window written over by someone else) is no outage: that call alone is refused and logged
 * ({@link RedisRefusal}, {@link BudgetRefusals}), and Redis goes on deciding.
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

    private final String prefix;
    private final ScheduledExecutorService thread;
    private final BudgetRedis redis;
    private final BudgetLoss loss;
    private final BudgetCalls calls;
    private final BudgetRecovery recovery;
    private final BudgetRefusals refusals;
    private final String instance = UUID.randomUUID().toString();
    private final AtomicLong ids = new AtomicLong();

    private RedisBudgetLedger(Builder builder) {
        this.prefix = builder.keyPrefix;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread daemon = new Thread(runnable, "agentfuse-redis-budgets");
            daemon.setDaemon(true);
            return daemon;
        });
        this.redis = new BudgetRedis(builder.uri, builder.commandTimeout, thread);
        this.loss = new BudgetLoss(builder.onLoss, builder.clock);
        this.refusals = new BudgetRefusals(prefix);
        this.calls = new BudgetCalls(redis, prefix, instance, builder.wait, builder.reservationTtl, builder.presenceTtl,
                builder.maxNamedWindows, refusals);
        this.recovery = new BudgetRecovery(redis, calls, loss, refusals, builder.heartbeat, builder.probeInterval);
        recovery.start();
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
        return calls.reserve(id, claims, estimate).handle((answer, failure) -> {
            if (failure == null) {
                loss.heard(tallies(answer.result()), answer.instances());
                if (answer.unreadable() != null) {
                    refusals.unreadable(answer.unreadable());
                }
                return answer.result();
            }
            String refusal = RedisRefusal.ofOneCall(failure);
            if (refusal != null) {
                refusals.refused("reservation", claims, refusal, "that call is unavailable");
                // A script is not rolled back: what it reserved before the refusal is given back (else it lapses).
                calls.settle(new BudgetLoss.Owed(id, claims, BudgetAmount.ZERO));
                return new ReserveResult.Unavailable("Redis refused the reservation in its windows (the log names the keys)");
            }
            recovery.lost(failure);
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
        return calls.settle(new BudgetLoss.Owed(reservationId, claims, used)).handle((notWindows, failure) -> {
            String refusal = failure == null ? null : RedisRefusal.ofOneCall(failure);
            if (failure == null) {
                refusals.notWindows(notWindows);
            } else if (refusal != null) {
                refusals.refused("settlement", claims, refusal, "its spend is not counted");
            } else if (failure != null) {
                recovery.lost(failure);
                loss.owe(reservationId, claims, used);
            }
            return null;
        });
    }

    @Override
    public CompletionStage<List<WindowTally>> windows(long nowMillis) {
        if (loss.away()) {
            return CompletableFuture.failedFuture(new IllegalStateException("Redis is away; the fleet's windows are there"));
        }
        return calls.windows(nowMillis);
    }

    @Override
    public CompletionStage<Boolean> reset(WindowKey key) {
        return calls.reset(key);
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
     * interval (250 ms), command timeout (the URI's {@code timeout}, else 1 s: {@link CommandTimeout}),
     * caller-named windows (100 000). Not thread-safe.
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
        private Duration commandTimeout;
        private int maxNamedWindows = LocalBudgetLedger.DEFAULT_MAX_WINDOWS;

        private Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
            if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
                throw new IllegalArgumentException("state.redis.uri must start with redis:// or rediss://, but was '" + uri + "'");
            }
            this.commandTimeout = CommandTimeout.of(uri);
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

        /** How long Lettuce waits for any command before failing it; default the URI's {@code timeout}, else 1 s. */
        public Builder commandTimeout(Duration commandTimeout) {
            this.commandTimeout = positive("commandTimeout", commandTimeout);
            return this;
        }

        /**
         * How many windows of scope values callers named (session ids, tenants no key vouches for) the
         * fleet keeps in Redis at most; beyond them the least recently reserved in is forgotten, as a
         * {@link LocalBudgetLedger} does; default {@link LocalBudgetLedger#DEFAULT_MAX_WINDOWS}.
         */
        public Builder maxNamedWindows(int maxNamedWindows) {
            if (maxNamedWindows < 1) {
                throw new IllegalArgumentException("maxNamedWindows must be >= 1, but was " + maxNamedWindows);
            }
            this.maxNamedWindows = maxNamedWindows;
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
