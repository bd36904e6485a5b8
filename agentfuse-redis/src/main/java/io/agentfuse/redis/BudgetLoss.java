package io.agentfuse.redis;

import io.agentfuse.core.Clock;
import io.agentfuse.core.budget.BudgetAmount;
import io.agentfuse.core.budget.BudgetClaim;
import io.agentfuse.core.budget.BudgetOnLoss;
import io.agentfuse.core.budget.LocalBudgetLedger;
import io.agentfuse.core.budget.ReserveResult;
import io.agentfuse.core.budget.WindowKey;
import io.agentfuse.core.budget.WindowTally;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one instance knows of the fleet's budgets, and how it spends while Redis is away
 * ({@link BudgetOnLoss}): what each window had left when Redis last answered, how many instances
 * Redis counted then, a local ledger of what this instance admitted meanwhile, and what it owes
 * Redis when it is back — the settlements of calls Redis had reserved, and the spend of calls it
 * admitted alone (summed per window).
 *
 * <ul>
 *   <li>{@code share}: each window may spend its remaining divided by the instances seen; an
 *       instance that never heard from Redis does not know that number and admits nothing;</li>
 *   <li>{@code open}: each window may spend all its remaining, on every instance;</li>
 *   <li>{@code closed}: nothing is admitted.</li>
 * </ul>
 * A window with nothing left when Redis last answered admits nothing under any rule.
 *
 * <p>Thread-safe: one lock, held for microseconds.
 */
final class BudgetLoss {

    /** The windows remembered at most; beyond them, the one least recently heard of is forgotten. */
    static final int MAX_WINDOWS = 100_000;

    /** A settlement Redis is owed: the reservation {@code id} of {@code claims}, used as {@code used}. */
    record Owed(String id, List<BudgetClaim> claims, BudgetAmount used) {
    }

    private final BudgetOnLoss rule;
    private final Clock clock;
    /**
     * What Redis last said of each window, the least recently used first: a caller inventing session
     * ids pushes out windows nobody uses any more (ended ones among them), not the live ones, and
     * costs no scan of the whole map per answer.
     */
    private final Map<WindowKey, WindowTally> lastHeard = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<WindowKey, WindowTally> eldest) {
            return size() > MAX_WINDOWS;
        }
    };
    private final List<Owed> owed = new ArrayList<>();
    private final Map<WindowKey, Owed> spentAlone = new LinkedHashMap<>();
    private LocalBudgetLedger alone;
    private int instances;
    private boolean away = true;

    BudgetLoss(BudgetOnLoss rule, Clock clock) {
        this.rule = rule;
        this.clock = clock;
        this.alone = new LocalBudgetLedger(clock);
    }

    /** The wall-clock time, epoch milliseconds. */
    long clockMillis() {
        return clock.epochMillis();
    }

    /** Whether Redis is away: budgets follow the rule. */
    synchronized boolean away() {
        return away;
    }

    /** Redis stopped answering; returns whether it was answering until now. */
    synchronized boolean lost() {
        boolean was = !away;
        away = true;
        return was;
    }

    /** The instances Redis counted when it last answered; 0 before it ever did. */
    synchronized int instances() {
        return instances;
    }

    /** Redis answered with {@code tallies} and counted {@code instancesSeen} instances. */
    synchronized void heard(List<WindowTally> tallies, int instancesSeen) {
        heard(instancesSeen);
        for (WindowTally tally : tallies) {
            lastHeard.put(tally.key(), tally);
        }
    }

    /** Redis counted {@code instancesSeen} instances. */
    synchronized void heard(int instancesSeen) {
        instances = Math.max(1, instancesSeen);
    }

    /** What Redis last said of {@code window}, if anything. */
    synchronized Optional<WindowTally> lastHeard(WindowKey window) {
        return Optional.ofNullable(lastHeard.get(window));
    }

    /** Whether {@code id} is a reservation this instance made alone, while Redis was away. */
    static boolean madeAlone(String id) {
        return id.startsWith("local-");
    }

    /** A reservation while Redis is away, by the rule. */
    synchronized ReserveResult reserve(List<BudgetClaim> claims, BudgetAmount estimate) {
        if (rule == BudgetOnLoss.CLOSED) {
            return new ReserveResult.Unavailable("Redis is away and state.redis.budgetOnLoss is closed");
        }
        if (rule == BudgetOnLoss.SHARE && instances == 0) {
            return new ReserveResult.Unavailable("Redis is away, and this instance has not heard from it yet to know"
                    + " how many instances share the budget (state.redis.budgetOnLoss: share)");
        }
        int parts = rule == BudgetOnLoss.SHARE ? instances : 1;
        List<BudgetClaim> shares = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            BudgetClaim claim = claims.get(i);
            WindowTally last = lastHeard.get(claim.key());
            WindowTally known = last == null ? WindowTally.empty(claim) : last.withLimit(claim.limit());
            if (!known.admits()) {
                return new ReserveResult.Refused(i, known);
            }
            shares.add(claim.withLimit(claim.limit().share(known.remaining(), parts)));
        }
        return alone.reserveNow(shares, estimate);
    }

    /** Settles a reservation made alone: counted locally, and owed to Redis as spend. */
    synchronized void settleAlone(String id, List<BudgetClaim> claims, BudgetAmount estimate, BudgetAmount used) {
        alone.settleNow(id, claims, estimate, used);
        if (used.isZero()) {
            return;
        }
        for (BudgetClaim claim : claims) {
            Owed before = spentAlone.get(claim.key());
            BudgetAmount sum = before == null ? used : before.used().plus(used);
            spentAlone.put(claim.key(), new Owed("", List.of(claim), sum));
        }
    }

    /**
     * Keeps the settlement of a reservation Redis holds (or may hold: one whose answer did not come)
     * for when Redis is back; returns false, keeping nothing, when Redis is not away.
     */
    synchronized boolean oweIfAway(String id, List<BudgetClaim> claims, BudgetAmount used) {
        if (!away) {
            return false;
        }
        owed.add(new Owed(id, claims, used));
        return true;
    }

    /** Keeps a settlement for Redis whatever its state (a call whose answer did not come). */
    synchronized void owe(String id, List<BudgetClaim> claims, BudgetAmount used) {
        owed.add(new Owed(id, claims, used));
    }

    /**
     * What Redis is owed, taken out; when nothing is, Redis is counted as back (atomically: nothing
     * can be owed between the last replay and the return) and this instance starts afresh alone.
     */
    synchronized List<Owed> takeOwedOrReturn() {
        if (owed.isEmpty() && spentAlone.isEmpty()) {
            away = false;
            alone = new LocalBudgetLedger(clock);
            return List.of();
        }
        List<Owed> due = new ArrayList<>(owed);
        due.addAll(spentAlone.values());
        owed.clear();
        spentAlone.clear();
        return due;
    }

    /** Puts back settlements Redis could not take. */
    synchronized void putBack(List<Owed> due) {
        owed.addAll(0, due);
    }
}
