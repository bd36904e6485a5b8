package io.agentfuse.core.budget;

import java.util.Objects;

/**
 * What a reservation asks of one window: its key, the budget's limit, and when the window ends
 * (after which the ledger may forget it).
 *
 * <p>Immutable.
 *
 * @param key       the window
 * @param limit     the budget's limit per window
 * @param endMillis the window's end, epoch milliseconds
 */
public record BudgetClaim(WindowKey key, BudgetLimit limit, long endMillis) {

    public BudgetClaim {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(limit, "limit");
        if (endMillis <= key.startMillis()) {
            throw new IllegalArgumentException("a window must end after it starts, but " + key + " ends at " + endMillis);
        }
    }

    /** This claim with another limit (an instance's share of the fleet's while the shared ledger is away). */
    public BudgetClaim withLimit(BudgetLimit limit) {
        return new BudgetClaim(key, limit, endMillis);
    }
}
