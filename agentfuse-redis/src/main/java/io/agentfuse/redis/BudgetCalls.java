package io.agentfuse.redis;

import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;
import io.lettuce.core.ScriptOutputType;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The budget ledger's scripts on its connection ({@link BudgetScripts}), each awaited for the
 * ledger's bounded wait: what one instance asks of Redis, with its keys and arguments. The fleet
 * keys a script found written over and replaced (the last element of its reply) are handed to
 * {@link BudgetRefusals#replaced} here, for every script. Thread-safe.
 */
final class BudgetCalls {

    /**
     * How long a window's record outlives its end: long enough for an instance whose clock lags
     * Redis's to find it; nothing reads a window that ended (the admin API lists those that run), and
     * a call settled later counts in a record that expires at once.
     */
    static final long MARGIN_MILLIS = Duration.ofMinutes(5).toMillis();
    /** The windows listed at most. */
    static final int MAX_LISTED = 1_000;

    private final BudgetRedis redis;
    private final String prefix;
    private final String instance;
    private final Duration wait;
    private final Duration reservationTtl;
    private final Duration presenceTtl;
    private final int maxNamed;
    private final BudgetRefusals refusals;

    BudgetCalls(BudgetRedis redis, String prefix, String instance, Duration wait, Duration reservationTtl,
                Duration presenceTtl, int maxNamed, BudgetRefusals refusals) {
        this.redis = redis;
        this.prefix = prefix;
        this.instance = instance;
        this.wait = wait;
        this.reservationTtl = reservationTtl;
        this.presenceTtl = presenceTtl;
        this.maxNamed = maxNamed;
        this.refusals = refusals;
    }

    /** Reserves {@code estimate} as {@code id} in every window of {@code claims}, or in none. */
    CompletableFuture<BudgetReplies.Reply> reserve(String id, List<BudgetClaim> claims, BudgetAmount estimate) {
        String[] args = BudgetScripts.reserveArgs(id, estimate, reservationTtl.toMillis(), instance,
                presenceTtl.toMillis(), MARGIN_MILLIS, maxNamed, claims);
        return redis.<List<Object>>eval(BudgetScripts.RESERVE, ScriptOutputType.MULTI,
                BudgetScripts.reserveKeys(prefix, claims), args, wait)
                .thenApply(reply -> BudgetReplies.reserveReply(fleetKeysTold(reply), id, claims));
    }

    /** Settles what {@code owed} says; the claims whose keys hold no window, and were left out. */
    CompletableFuture<List<BudgetClaim>> settle(BudgetLoss.Owed owed) {
        return redis.<List<Object>>eval(BudgetScripts.SETTLE, ScriptOutputType.MULTI, BudgetScripts.settleKeys(prefix, owed.claims()),
                BudgetScripts.settleArgs(owed.id(), owed.used(), MARGIN_MILLIS, owed.claims()), wait)
                .thenApply(reply -> fleetKeysTold(reply).stream().map(k -> owed.claims().get(((Long) k).intValue() - 1)).toList());
    }

    /** The fleet's windows that end after {@code nowMillis}, at most {@value #MAX_LISTED}; waits four times as long. */
    CompletableFuture<List<WindowTally>> windows(long nowMillis) {
        return redis.<List<Object>>eval(BudgetScripts.LIST, ScriptOutputType.MULTI, new String[] {BudgetKeys.index(prefix)},
                        new String[] {Long.toString(nowMillis), Integer.toString(MAX_LISTED), Long.toString(MARGIN_MILLIS)},
                        wait.multipliedBy(4))
                .thenApply(reply -> BudgetReplies.listed(prefix, fleetKeysTold(reply)));
    }

    /** Forgets what {@code key} spent; whether it existed. */
    CompletableFuture<Boolean> reset(WindowKey key) {
        return redis.<Long>eval(BudgetScripts.RESET, ScriptOutputType.INTEGER,
                new String[] {BudgetKeys.window(prefix, key)}, new String[0], wait.multipliedBy(4))
                .thenApply(existed -> existed == 1L);
    }

    /** Tells Redis this instance is alive; the instances alive. */
    CompletableFuture<Long> presence() {
        return redis.<List<Object>>eval(BudgetScripts.PRESENCE, ScriptOutputType.MULTI, new String[] {BudgetKeys.instances(prefix)},
                new String[] {instance, Long.toString(presenceTtl.toMillis())}, wait)
                .thenApply(reply -> (Long) fleetKeysTold(reply).get(0));
    }

    /** A script's reply without its last element, the fleet keys it replaced, which are told of. */
    private List<Object> fleetKeysTold(List<Object> reply) {
        Object replaced = reply.get(reply.size() - 1);
        if (replaced instanceof List<?> keys && !keys.isEmpty()) {
            refusals.replaced(keys.stream().map(String::valueOf).toList());
        }
        return reply.subList(0, reply.size() - 1);
    }

    /** How long a call waits for Redis. */
    Duration waitLimit() {
        return wait;
    }
}
