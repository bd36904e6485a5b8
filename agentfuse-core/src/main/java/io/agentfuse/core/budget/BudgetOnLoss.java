package io.agentfuse.core.budget;

/**
 * What a shared ledger does while the store a fleet shares is unreachable or slower than its short
 * bounded wait (config {@code state.redis.budgetOnLoss}); what was spent meanwhile is settled into
 * the store when it returns.
 */
public enum BudgetOnLoss {
    /**
     * Each instance spends from its share of what was left when it last heard from the store: the
     * window's remaining divided by the instances it saw then. The default. An instance that never
     * reached the store does not know how many share it, and refuses until it has.
     */
    SHARE,
    /** Every budgeted call is refused until the store is back. */
    CLOSED,
    /** Each instance counts locally only: it may spend all that was left when it last heard from the store. */
    OPEN
}
