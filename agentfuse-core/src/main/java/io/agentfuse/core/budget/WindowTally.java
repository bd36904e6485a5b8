package io.agentfuse.core.budget;

import java.util.Objects;

/**
 * The state of one window in use, and the budget rules as pure functions of it:
 * <ul>
 *   <li><b>admission</b> ({@link #admits()}): a window admits a new reservation while something is
 *       left of every limited part, {@code spent + reserved < limit}; the reservation then takes its
 *       whole estimate. So a window overshoots its limit by at most the last reservation it admitted
 *       (one request's estimate), and only while that request's usage is not above its estimate;</li>
 *   <li><b>reservation</b> ({@link #reserve}): {@code reserved += estimate};</li>
 *   <li><b>settlement</b> ({@link #settle}): {@code reserved -= estimate; spent += used}.</li>
 * </ul>
 * Every ledger keeps these rules: {@link LocalBudgetLedger} calls them, the Redis ledger runs the
 * same arithmetic in one script.
 *
 * <p>Immutable. {@code tally.reserve(estimate).settle(estimate, used).spent() == tally.spent().plus(used)}.
 *
 * @param key       the window
 * @param limit     the budget's limit
 * @param endMillis when the window ends, epoch milliseconds
 * @param spent     what settled calls used
 * @param reserved  the estimates of calls in flight
 */
public record WindowTally(WindowKey key, BudgetLimit limit, long endMillis, BudgetAmount spent, BudgetAmount reserved) {

    public WindowTally {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(spent, "spent");
        Objects.requireNonNull(reserved, "reserved");
    }

    /** A window nothing was spent or reserved in yet. */
    public static WindowTally empty(BudgetClaim claim) {
        return new WindowTally(claim.key(), claim.limit(), claim.endMillis(), BudgetAmount.ZERO, BudgetAmount.ZERO);
    }

    /** Whether a new reservation is admitted: something is left of every limited part. */
    public boolean admits() {
        BudgetAmount used = spent.plus(reserved);
        return (!limit.limitsTokens() || used.tokens() < limit.tokens())
                && (!limit.limitsCost() || used.costNanos() < limit.costNanos());
    }

    /** This window with {@code estimate} reserved. */
    public WindowTally reserve(BudgetAmount estimate) {
        return new WindowTally(key, limit, endMillis, spent, reserved.plus(estimate));
    }

    /** This window with the reservation of {@code estimate} settled as {@code used}. */
    public WindowTally settle(BudgetAmount estimate, BudgetAmount used) {
        return new WindowTally(key, limit, endMillis, spent.plus(used), reserved.minus(estimate));
    }

    /** This window with {@code used} spent by a call that reserved nothing here. */
    public WindowTally spend(BudgetAmount used) {
        return new WindowTally(key, limit, endMillis, spent.plus(used), reserved);
    }

    /** This window with nothing spent (an operator's reset); calls in flight keep their reservations. */
    public WindowTally reset() {
        return new WindowTally(key, limit, endMillis, BudgetAmount.ZERO, reserved);
    }

    /** This window under {@code limit} (the configuration changed). */
    public WindowTally withLimit(BudgetLimit limit) {
        return new WindowTally(key, limit, endMillis, spent, reserved);
    }

    /**
     * What is left of each limited part after what is spent and reserved (0 at least); a part
     * that is not limited reads {@link BudgetLimit#NONE}.
     */
    public BudgetAmount remaining() {
        BudgetAmount used = spent.plus(reserved);
        long tokens = limit.limitsTokens() ? Math.max(0, limit.tokens() - used.tokens()) : 0;
        long cost = limit.limitsCost() ? Math.max(0, limit.costNanos() - used.costNanos()) : 0;
        return new BudgetAmount(tokens, cost);
    }
}
