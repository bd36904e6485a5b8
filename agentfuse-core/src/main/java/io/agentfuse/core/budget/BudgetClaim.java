package io.agentfuse.core.budget;

import java.util.Objects;

/**
 * What a reservation asks of one window: its key, the budget's limit, when the window ends (after
 * which the ledger may forget it), and whether the caller named its scope value itself (an agent
 * session's id, a tenant header no client key vouches for): such a window may be forgotten to make
 * room, since a caller can always name a fresh one.
 *
 * <p>Immutable.
 *
 * @param key       the window
 * @param limit     the budget's limit per window
 * @param endMillis the window's end, epoch milliseconds
 * @param callerNamed whether the caller chose the window's scope value itself
 */
public record BudgetClaim(WindowKey key, BudgetLimit limit, long endMillis, boolean callerNamed) {

    public BudgetClaim {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(limit, "limit");
        if (endMillis <= key.startMillis()) {
            throw new IllegalArgumentException("a window must end after it starts, but " + key + " ends at " + endMillis);
        }
    }

    /** A claim on a window whose scope value the caller did not choose (a tenant of a key, a key, global). */
    public BudgetClaim(WindowKey key, BudgetLimit limit, long endMillis) {
        this(key, limit, endMillis, false);
    }

    /** This claim with another limit (an instance's share of the fleet's while the shared ledger is away). */
    public BudgetClaim withLimit(BudgetLimit limit) {
        return new BudgetClaim(key, limit, endMillis, callerNamed);
    }
}
